<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

/**
 * The PHP options this process was started with (-d, -c, -n, ...), read from /proc/self/cmdline, so
 * that a PHP started for a subject variant loads the same extensions and settings as this one.
 */
final readonly class PhpCommandLine
{
    /** @param list<string> $phpArguments what stood between the PHP binary and the script */
    private function __construct(private array $phpArguments)
    {
    }

    /** Null where /proc/self/cmdline is missing or does not end in this script's $argv. */
    public static function current(): ?self
    {
        $file = '/proc/self/cmdline';
        $raw = is_readable($file) ? file_get_contents($file) : false;
        if ($raw === false || $raw === '') {
            return null;
        }
        $all = explode("\0", rtrim($raw, "\0"));
        $scriptArguments = $_SERVER['argv'] ?? [];
        $phpCount = count($all) - 1 - count($scriptArguments);
        if ($phpCount < 0 || array_slice($all, $phpCount + 1) !== $scriptArguments) {
            return null;
        }

        return new self(array_slice($all, 1, $phpCount));
    }

    /**
     * A PHP that reads no php.ini and no scan directory (-n), so that an installed apcu.ini or table.ini
     * cannot load anything besides what $arguments name (-d extension=..., -d name=value).
     *
     * @param list<string> $arguments
     */
    public static function bare(array $arguments): self
    {
        return new self(['-n', ...$arguments]);
    }

    /**
     * The settings this command line gives with -d (-d name=value or -dname=value), in order; a later one
     * for the same name wins, as in PHP. extension= and zend_extension= lines are settings too here.
     *
     * @return array<string, string> name => value
     */
    public function settings(): array
    {
        $settings = [];
        for ($i = 0, $count = count($this->phpArguments); $i < $count; $i++) {
            $argument = $this->phpArguments[$i];
            $setting = $argument === '-d' ? ($this->phpArguments[++$i] ?? '') : (str_starts_with($argument, '-d') ? substr($argument, 2) : null);
            if ($setting !== null && str_contains($setting, '=')) {
                [$name, $value] = explode('=', $setting, 2);
                unset($settings[$name]);
                $settings[$name] = $value;
            }
        }

        return $settings;
    }

    /** The same options, with $name set to $value in place of any -d for it. */
    public function withIni(string $name, string $value): self
    {
        $kept = [];
        for ($i = 0, $count = count($this->phpArguments); $i < $count; $i++) {
            $argument = $this->phpArguments[$i];
            if ($argument === '-d' && str_starts_with($this->phpArguments[$i + 1] ?? '', "$name=")) {
                $i++;
            } elseif (!str_starts_with($argument, "-d$name=")) {
                $kept[] = $argument;
            }
        }

        return new self([...$kept, '-d', "$name=$value"]);
    }

    /**
     * @param list<string> $arguments
     * @return list<string>
     */
    public function command(string $script, array $arguments): array
    {
        return [PHP_BINARY, ...$this->phpArguments, $script, ...$arguments];
    }
}
