<?php

declare(strict_types=1);

namespace Shm\Bench\Run;

use Shm\Bench\Benchmark;
use Shm\Bench\BenchmarkFailure;
use Shm\Bench\Log;
use Shm\Bench\Probe;
use Shm\Bench\Subject\ApcuSubject;

/**
 * APCu(table): APCu's own benchmark code (ApcuSubject) on a PHP where the apcu_*() functions are the table
 * extension's, beside APCu in the same report, so that the Factor column gives their ratio in one run.
 *
 * That PHP cannot be this one: here APCu is loaded, and table.apcu_compat=1 steps aside for it. So each
 * case runs in a second PHP (SecondPhp) started with -n, which reads no php.ini and no scan directory (an
 * installed apcu.ini or table.ini loads nothing), and loads by name only what the runner needs:
 *
 *   php -n [-d extension=pcntl] [-d extension=posix] -d extension=<the table.so this process mapped>
 *       -d memory_limit=<this PHP's> [this command line's other -d settings] -d table.apcu_compat=1
 *       -d apc.enable_cli=1 -d display_errors=stderr
 *
 * pcntl and posix are named only where they are shared objects in extension_dir (Debian builds pcntl into
 * the CLI and posix as a module). The table.so is the one this process has mapped (/proc/self/maps), so
 * APCu(table) runs the build that Table runs. A short probe of that PHP, before any case, must show the
 * functions served by the table (Probe::apcuProvider()) and enabled; its settings are the ones this
 * report shows, and the second PHP's runs must report the same, or the run fails. Where this PHP's own
 * apcu_*() are the table's, ApcuSubject runs as APCu(table) in this process and this participant is not
 * listed (Lineup).
 */
final class ApcuTableParticipant implements Participant
{
    private const RUNNER_EXTENSIONS = ['pcntl', 'posix'];

    /** @var array{reason: ?string, version: string, settings: array<string, string>}|null */
    private ?array $probed = null;

    public function __construct(private readonly string $runner, private readonly Log $log)
    {
    }

    public function name(): string
    {
        return ApcuSubject::TABLE_NAME;
    }

    public function family(): string
    {
        return 'APCu';
    }

    public function unavailableReason(): ?string
    {
        return $this->probe()['reason'];
    }

    public function version(): string
    {
        return $this->probe()['version'];
    }

    public function settings(): array
    {
        return $this->probe()['settings'];
    }

    public function unsupportedReason(Benchmark $case): ?string
    {
        return null;
    }

    public function measure(Benchmark $case, Plan $plan): array
    {
        $php = $this->commandLine() ?? throw new BenchmarkFailure("{$this->name()}: the table extension is no longer mapped in this process");
        $report = (new SecondPhp($this->runner, $this->log))->run($this->name(), [], [], $case, $plan, 'table.apcu_compat=1 and without APCu', $php);
        $reported = $report->settings($this->name());
        if ($reported !== $this->settings()) {
            throw new BenchmarkFailure(sprintf(
                '%s / %s: the second PHP reported the settings %s, this report shows %s: it did not run on the table it was probed on',
                $this->name(),
                $case->name,
                json_encode($reported),
                json_encode($this->settings()),
            ));
        }

        return $report->measurements($case->name, $this->name());
    }

    /** The second PHP's options (class comment), or null where this process has no table.so mapped. */
    private function commandLine(): ?PhpCommandLine
    {
        $so = Probe::loadedLibrary('table.so');
        if ($so === null) {
            return null;
        }
        $arguments = [];
        $extensionDir = (string) ini_get('extension_dir');
        foreach (self::RUNNER_EXTENSIONS as $extension) {
            if (is_file("$extensionDir/$extension.so")) {
                array_push($arguments, '-d', "extension=$extension");
            }
        }
        array_push($arguments, '-d', "extension=$so");
        // This PHP's -d settings (table.zero_copy, zend.signal_check, apc.use_request_time, ...), but not
        // its extensions; memory_limit as this PHP has it, php.ini's or not.
        $settings = ['memory_limit' => (string) ini_get('memory_limit')] + (PhpCommandLine::current()?->settings() ?? []);
        unset($settings['extension'], $settings['zend_extension'], $settings['table.apcu_compat'], $settings['apc.enable_cli']);
        // Its stdout is the JSON report: PHP's own messages go to stderr (under -n they would go to stdout).
        unset($settings['display_errors']);
        $settings += ['table.apcu_compat' => '1', 'apc.enable_cli' => '1', 'display_errors' => 'stderr'];
        foreach ($settings as $name => $value) {
            array_push($arguments, '-d', "$name=$value");
        }

        return PhpCommandLine::bare($arguments);
    }

    /**
     * Starts the second PHP once, to ask it what ApcuSubject would run on there.
     *
     * @return array{reason: ?string, version: string, settings: array<string, string>}
     */
    private function probe(): array
    {
        if ($this->probed !== null) {
            return $this->probed;
        }
        $php = $this->commandLine();
        if ($php === null) {
            return $this->probed = ['reason' => 'extension table is not loaded from a table.so in this PHP (php -d extension=modules/table.so)', 'version' => '', 'settings' => []];
        }
        $code = sprintf(
            'require %s; $s = new Shm\Bench\Subject\ApcuSubject(); $missing = array_diff(%s, get_loaded_extensions());'
            . ' echo json_encode(["name" => $s->name(), "missing" => array_values($missing), "reason" => $s->unavailableReason(),'
            . ' "version" => $s->version(), "settings" => $s->settings()]);',
            var_export(dirname(__DIR__) . '/autoload.php', true),
            var_export(self::RUNNER_EXTENSIONS, true),
        );
        $command = $php->command('-r', [$code]);   // [php, options..., '-r', code]
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            return $this->probed = ['reason' => 'could not start ' . PHP_BINARY, 'version' => '', 'settings' => []];
        }
        $out = (string) stream_get_contents($pipes[1]);
        $err = trim((string) stream_get_contents($pipes[2]));
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($process);
        $answer = json_decode($out, true);
        $started = implode(' ', array_map('escapeshellarg', array_slice($command, 0, -2)));
        if ($status !== 0 || !is_array($answer)) {
            $reason = sprintf('%s failed (exit status %d)%s', $started, $status, $err === '' ? '' : ": $err");
        } elseif ($answer['missing'] !== []) {
            $reason = sprintf('%s has no %s, which the runner needs', $started, implode(', ', $answer['missing']));
        } elseif ($answer['name'] !== $this->name()) {
            $reason = sprintf("in %s the apcu_*() functions are not the table's (it would run %s)", $started, $answer['name']);
        } else {
            $reason = $answer['reason'] === null ? null : "$started: {$answer['reason']}";
        }

        return $this->probed = [
            'reason' => $reason,
            'version' => is_array($answer) ? (string) $answer['version'] : '',
            'settings' => is_array($answer) ? array_map('strval', (array) $answer['settings']) : [],
        ];
    }
}
