<?php

declare(strict_types=1);

namespace Shm\Bench\Report;

/**
 * A boxed text table. Columns listed in $rightAligned are aligned right; a null row draws a rule
 * between groups of rows.
 */
final class TextTable
{
    /**
     * @param list<string>             $headers
     * @param list<list<string>|null>  $rows
     * @param list<int>                $rightAligned column indexes
     */
    public static function render(array $headers, array $rows, array $rightAligned): string
    {
        $widths = array_map('strlen', $headers);
        foreach ($rows as $row) {
            foreach ($row ?? [] as $column => $cell) {
                $widths[$column] = max($widths[$column], strlen($cell));
            }
        }
        $rule = '+' . implode('+', array_map(static fn (int $width): string => str_repeat('-', $width + 2), $widths)) . "+\n";
        $line = static function (array $cells) use ($widths, $rightAligned): string {
            $padded = [];
            foreach ($cells as $column => $cell) {
                $padded[] = str_pad($cell, $widths[$column], ' ', in_array($column, $rightAligned, true) ? STR_PAD_LEFT : STR_PAD_RIGHT);
            }

            return '| ' . implode(' | ', $padded) . " |\n";
        };

        $text = $rule . $line($headers) . $rule;
        foreach ($rows as $row) {
            $text .= $row === null ? $rule : $line($row);
        }

        return $text . $rule;
    }
}
