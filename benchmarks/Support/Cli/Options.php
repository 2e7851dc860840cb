<?php

declare(strict_types=1);

namespace Shm\Bench\Cli;

use Shm\Bench\UsageError;

/** The options of benchmarks/run, parsed and checked. Both "--name value" and "--name=value" work. */
final class Options
{
    private const VALUED = ['workers', 'warmup', 'runs', 'duration', 'filter', 'out', 'repeat', 'apcu-serializers', 'svg'];
    /** option => property */
    private const FLAGS = ['json' => 'json', 'verbose' => 'verbose', 'help' => 'help', 'table-segment' => 'tableSegment'];
    private const SHORT = ['-v' => 'verbose', '-h' => 'help'];

    /** @var list<int> */
    public array $workers = [1];
    public int $warmup = 1;
    public int $runs = 5;
    public float $duration = 1.0;
    public ?string $filter = null;
    public bool $json = false;
    public ?string $out = null;
    public ?string $svg = null;
    public int $repeat = 1;
    public bool $verbose = false;
    public bool $help = false;
    /** also Table on a named segment, Table(segment), in a second PHP */
    public bool $tableSegment = false;
    /** @var list<string>|null null: this PHP's apc.serializer, then "default" */
    public ?array $apcuSerializers = null;
    /** @var list<string> */
    public array $cases = [];

    /** @param list<string> $arguments the command line after the script name */
    public static function parse(array $arguments): self
    {
        $options = new self();
        while ($arguments !== []) {
            $argument = array_shift($arguments);
            if ($argument === '--') {
                array_push($options->cases, ...$arguments);
                break;
            }
            if (!str_starts_with($argument, '-') || $argument === '-') {
                $options->cases[] = $argument;
                continue;
            }
            [$name, $value] = str_contains($argument, '=') ? explode('=', $argument, 2) : [$argument, null];
            $name = self::SHORT[$name] ?? (str_starts_with($name, '--') ? substr($name, 2) : $name);
            if (isset(self::FLAGS[$name])) {
                if ($value !== null) {
                    throw new UsageError("--$name takes no value");
                }
                $options->{self::FLAGS[$name]} = true;
            } elseif (in_array($name, self::VALUED, true)) {
                $value ??= array_shift($arguments) ?? throw new UsageError("--$name needs a value");
                $options->set($name, $value);
            } else {
                throw new UsageError("unknown option $argument");
            }
        }

        return $options;
    }

    private function set(string $name, string $value): void
    {
        match ($name) {
            'workers' => $this->workers = array_map(static fn (string $count): int => self::integer('workers', $count, 1), explode(',', $value)),
            'warmup' => $this->warmup = self::integer($name, $value, 0),
            'runs' => $this->runs = self::integer($name, $value, 1),
            'repeat' => $this->repeat = self::integer($name, $value, 1),
            'duration' => $this->duration = self::seconds($value),
            'filter' => $this->filter = $value,
            'out' => $this->out = $value,
            'svg' => $this->svg = $value,
            'apcu-serializers' => $this->apcuSerializers = self::list($name, $value),
        };
    }

    private static function integer(string $name, string $value, int $minimum): int
    {
        if (preg_match('/^\d+$/', $value) !== 1 || (int) $value < $minimum) {
            throw new UsageError("--$name: expected an integer of at least $minimum, got \"$value\"");
        }

        return (int) $value;
    }

    private static function seconds(string $value): float
    {
        if (!is_numeric($value) || (float) $value <= 0) {
            throw new UsageError("--duration: expected a positive number of seconds, got \"$value\"");
        }

        return (float) $value;
    }

    /** @return list<string> */
    private static function list(string $name, string $value): array
    {
        $items = array_values(array_unique(array_filter(array_map('trim', explode(',', $value)), 'strlen')));
        if ($items === []) {
            throw new UsageError("--$name: expected a comma list");
        }

        return $items;
    }
}
