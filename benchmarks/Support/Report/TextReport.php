<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\Benchmark;
use Shm\Bench\Environment;
use Shm\Bench\Format;
use Shm\Bench\Run\Plan;

/**
 * The human report: a header naming the machine, the PHP and every subject's version and settings, then
 * one table per case, rows grouped by worker count and ranked slowest first. In each group the slowest
 * row is the baseline (Change 0.00%, Factor 1.00x).
 */
final readonly class TextReport
{
    private const HEADERS = ['Client', 'Memory', 'Network', 'Workers', 'IOPS', 'IOPS/Worker', 'rstdev', 'Change', 'Factor'];
    private const RIGHT_ALIGNED = [1, 2, 3, 4, 5, 6, 7, 8];

    /** @param resource $out */
    public function __construct(private mixed $out)
    {
    }

    public function header(Environment $environment): void
    {
        $subjects = [];
        foreach ($environment->subjects as ['version' => $version, 'settings' => $settings]) {
            $pairs = array_map(static fn (string $name, string $value): string => "$name $value", array_keys($settings), $settings);
            $subjects[] = $version . ($pairs === [] ? '' : ' (' . implode(', ', $pairs) . ')');
        }
        $onOff = static fn (bool $on): string => $on ? 'On' : 'Off';
        fprintf(
            $this->out,
            "Setting up on %s (%d cores/%d threads %s)\nUsing PHP %s (OPcache: %s, JIT: %s, Xdebug: %s)  %s\n",
            $environment->cpuModel,
            $environment->cores,
            $environment->threads,
            $environment->architecture,
            $environment->phpVersion,
            $onOff($environment->opcache),
            $onOff($environment->jit),
            $onOff($environment->xdebug),
            implode(', ', $subjects),
        );
    }

    public function caseStarts(Benchmark $case, Plan $plan, int $repeat): void
    {
        fprintf(
            $this->out,
            "\n %s  Executing %d iterations (%d warmup) for %.2fs seconds%s\n %s; %s\n",
            $case->name,
            $plan->runs,
            $plan->warmup,
            $plan->duration,
            $repeat > 1 ? ", median of $repeat runs" : '',
            $case->dataset->description,
            $case->workload->description,
        );
    }

    public function caseResults(string $case, ResultSet $results): void
    {
        $rows = [];
        foreach ($results->ranked($case) as $workers => $ranked) {
            if ($rows !== []) {
                $rows[] = null;
            }
            $baseline = $ranked[0]->median();
            foreach ($ranked as $result) {
                $factor = $result->median() / $baseline;
                $rows[] = [
                    $result->subject,
                    Format::bytes($result->memory()),
                    Format::bytes($result->network()),
                    (string) $workers,
                    Format::count($result->median()),
                    Format::count($result->median() / $workers),
                    Format::percent($result->rstdevPercent()),
                    Format::percent(($factor - 1) * 100, signed: true),
                    Format::factor($factor),
                ];
            }
        }
        if ($rows !== []) {
            fwrite($this->out, TextTable::render(self::HEADERS, $rows, self::RIGHT_ALIGNED));
        }
    }
}
