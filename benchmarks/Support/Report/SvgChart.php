<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

use Shm\Bench\Format;

/**
 * The results as a self-contained SVG chart (no script, no external font or stylesheet): one panel per
 * case, and in it one group per worker count with a horizontal bar per subject whose length is its Factor,
 * the ratio to the slowest subject of that group in the same run (as in the text report). Ratios, not IOPS:
 * they are what compares across machines. Bars of one case share a scale, so worker counts compare too.
 *
 * With two files (benchmarks/compare A.json B.json --svg FILE) every subject gets two bars, A (light) above
 * B (solid), each file's factor against its own slowest subject.
 */
final class SvgChart
{
    private const WIDTH = 760;
    private const LABEL = 170;      // subject names
    private const VALUE = 64;       // room for "12.34x" after the longest bar
    private const BAR = 14;
    private const GAP = 4;
    private const PALETTE = ['#8c6bb1', '#41ab5d', '#e7298a', '#66a61e', '#a6761d', '#1b9e77', '#7570b3', '#666666'];
    private const FAMILY_COLORS = ['Table' => '#2e6fdb', 'APCu' => '#e8853d', 'Redis' => '#c0392b'];

    /**
     * @param list<array{0: string, 1: ResultFile}> $files [label, file]; one file, or two (A, B)
     */
    public static function render(array $files, string $title): string
    {
        $two = count($files) > 1;
        $cases = self::cases($files);
        $barsPerSubject = count($files);
        $row = $barsPerSubject * self::BAR + ($barsPerSubject - 1) + self::GAP;
        $colors = [];
        $body = '';
        $y = 44 + ($two ? 22 : 0);
        foreach ($cases as $case => $byWorkers) {
            $max = 1.0;
            foreach ($byWorkers as $subjects) {
                foreach ($subjects as $factors) {
                    $max = max([$max, ...array_filter($factors, 'is_float')]);
                }
            }
            $scale = (self::WIDTH - self::LABEL - self::VALUE - 20) / $max;
            $body .= sprintf('<g class="case" data-case="%s">', self::e($case));
            $body .= sprintf('<text x="10" y="%d" class="case-title">%s</text>', $y + 14, self::e($case));
            $y += 24;
            // the 1.00x line: where the slowest subject of each group ends
            $top = $y;
            foreach ($byWorkers as $workers => $subjects) {
                $body .= sprintf('<text x="10" y="%d" class="workers">%d worker%s</text>', $y + 11, $workers, $workers === 1 ? '' : 's');
                $y += 16;
                foreach ($subjects as $subject => $factors) {
                    $colors[$subject] ??= self::color($subject, count($colors));
                    $body .= sprintf('<text x="%d" y="%d" class="subject" text-anchor="end">%s</text>', self::LABEL - 8, $y + $row / 2 + 2, self::e($subject));
                    foreach ($factors as $i => $factor) {
                        $by = $y + $i * (self::BAR + 1);
                        if ($factor === null) {
                            $body .= sprintf('<text x="%d" y="%d" class="value">-</text>', self::LABEL + 4, $by + 11);
                            continue;
                        }
                        $w = max(1.0, $factor * $scale);
                        $body .= sprintf(
                            '<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"%s data-subject="%s" data-workers="%d" data-factor="%.4f"><title>%s</title></rect>',
                            self::LABEL,
                            $by,
                            $w,
                            self::BAR,
                            $colors[$subject],
                            $two && $i === 0 ? ' fill-opacity="0.45"' : '',
                            self::e($subject),
                            $workers,
                            $factor,
                            self::e(sprintf('%s%s, %d worker%s: %s', $two ? $files[$i][0] . ': ' : '', $subject, $workers, $workers === 1 ? '' : 's', Format::factor($factor))),
                        );
                        $body .= sprintf('<text x="%.1f" y="%d" class="value">%s</text>', self::LABEL + $w + 4, $by + 11, Format::factor($factor));
                    }
                    $y += $row;
                }
                $y += 6;
            }
            $x1 = self::LABEL + $scale;
            $body .= sprintf('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="one"/>', $x1, $top, $x1, $y - 6);
            $body .= '</g>';
            $y += 10;
        }
        if ($cases === []) {
            $body .= sprintf('<text x="10" y="%d">no results</text>', $y + 14);
            $y += 24;
        }
        $legend = '';
        if ($two) {
            $legend = sprintf(
                '<text x="10" y="52" class="note">light: A = %s; solid: B = %s</text>',
                self::e($files[0][0]),
                self::e($files[1][0]),
            );
        }
        $height = $y + 22;

        return sprintf(
            <<<'SVG'
                <?xml version="1.0" encoding="UTF-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" width="%1$d" height="%2$d" viewBox="0 0 %1$d %2$d" role="img">
                <title>%3$s</title>
                <desc>Factor per subject and worker count: each subject's median IOPS divided by the slowest subject's in the same run, case and worker count.</desc>
                <style>
                text { font: 12px -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; fill: #1d2330; }
                .title { font-size: 15px; font-weight: 600; }
                .case-title { font-size: 13px; font-weight: 600; }
                .workers, .note { fill: #667085; }
                .value { font-size: 11px; font-variant-numeric: tabular-nums; }
                .one { stroke: #98a2b3; stroke-dasharray: 3 3; }
                </style>
                <rect width="100%%" height="100%%" fill="#ffffff"/>
                <text x="10" y="24" class="title">%4$s</text>
                <text x="10" y="%5$d" class="note">Factor: median IOPS / the slowest subject's, same case and workers (dashed: 1.00x)</text>
                %6$s
                %7$s
                </svg>

                SVG,
            self::WIDTH,
            $height,
            self::e($title),
            self::e($title),
            $two ? 36 : 38,
            $legend,
            $body,
        );
    }

    /**
     * case => workers => subject => [factor in each file, null where it did not run]. Within a case every
     * worker group lists the subjects in one order (as first met: the slowest of the first group first),
     * so that a subject sits in the same place in each group.
     *
     * @param list<array{0: string, 1: ResultFile}> $files
     * @return array<string, array<int, array<string, list<float|null>>>>
     */
    private static function cases(array $files): array
    {
        $order = $groups = [];
        foreach ($files as [, $file]) {
            foreach ($file->groups() as $case => $byWorkers) {
                ksort($byWorkers);
                foreach ($byWorkers as $workers => $subjects) {
                    $groups[$case][$workers] = true;
                    foreach ($subjects as $subject) {
                        $order[$case][$subject] = true;
                    }
                }
            }
        }
        $out = [];
        foreach ($groups as $case => $byWorkers) {
            ksort($byWorkers);
            foreach (array_keys($byWorkers) as $workers) {
                foreach (array_keys($order[$case]) as $subject) {
                    $out[$case][$workers][$subject] = [];
                }
            }
        }
        foreach ($out as $case => $byWorkers) {
            foreach ($byWorkers as $workers => $subjects) {
                foreach ($files as [, $file]) {
                    $medians = [];
                    foreach (array_keys($subjects) as $subject) {
                        $medians[$subject] = $file->median($case, $workers, $subject);
                    }
                    $present = array_filter($medians, static fn (?float $m): bool => $m !== null && $m > 0);
                    $slowest = $present === [] ? null : min($present);
                    foreach ($medians as $subject => $median) {
                        $out[$case][$workers][$subject][] = $slowest === null || $median === null || $median <= 0 ? null : $median / $slowest;
                    }
                }
            }
        }

        return $out;
    }

    private static function color(string $subject, int $index): string
    {
        foreach (self::FAMILY_COLORS as $family => $color) {
            if ($subject === $family || str_starts_with($subject, "$family(")) {
                // variants of one family (APCu(php), APCu(default)) in shades of its color
                return $subject === $family || str_ends_with($subject, '(php)') ? $color : self::shade($color);
            }
        }

        return self::PALETTE[$index % count(self::PALETTE)];
    }

    private static function shade(string $color): string
    {
        $rgb = array_map('hexdec', str_split(substr($color, 1), 2));

        return vsprintf('#%02x%02x%02x', array_map(static fn (int $c): int => (int) round($c * 0.7), $rgb));
    }

    private static function e(string $text): string
    {
        return htmlspecialchars($text, ENT_XML1 | ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8');
    }
}
