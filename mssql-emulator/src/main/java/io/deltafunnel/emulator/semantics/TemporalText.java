package io.deltafunnel.emulator.semantics;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Parses the ISO-like date/time text SQL Server accepts from clients (and mssql-jdbc sends for bulk copy):
 * {@code yyyy-MM-dd}, {@code yyyy-MM-dd hh:mm[:ss[.fffffff]]} (space or 'T'), {@code hh:mm[:ss[.fffffff]]}, each
 * optionally followed by an offset {@code +hh:mm}, {@code -hh:mm} or {@code Z}.
 */
final class TemporalText {
    final LocalDate date;
    final LocalTime time;
    final int fractionDigits;
    final ZoneOffset offset;

    private TemporalText(LocalDate date, LocalTime time, int fractionDigits, ZoneOffset offset) {
        this.date = date;
        this.time = time;
        this.fractionDigits = fractionDigits;
        this.offset = offset;
    }

    static SqlServerError conversionError() {
        return ErrorCatalog.DATETIME_CONVERSION_FAILED.error(
                "Conversion failed when converting date and/or time from character string.");
    }

    static TemporalText parse(String text) throws SqlServerError {
        String s = text.trim();
        int n = s.length();
        int i = 0;
        LocalDate date = null;
        LocalTime time = null;
        int digits = 0;
        ZoneOffset off = null;
        try {
            if (n >= 10 && s.charAt(4) == '-' && s.charAt(7) == '-') {
                date = LocalDate.of(num(s, 0, 4), num(s, 5, 7), num(s, 8, 10));
                i = 10;
                if (i < n && (s.charAt(i) == ' ' || s.charAt(i) == 'T')) {
                    i++;
                    while (i < n && s.charAt(i) == ' ') {
                        i++;
                    }
                }
            }
            if (i < n && Character.isDigit(s.charAt(i))) {
                int h = num(s, i, i + 2);
                if (i + 2 >= n || s.charAt(i + 2) != ':') {
                    throw conversionError();
                }
                int m = num(s, i + 3, i + 5);
                i += 5;
                int sec = 0;
                long nanos = 0;
                if (i < n && s.charAt(i) == ':') {
                    sec = num(s, i + 1, i + 3);
                    i += 3;
                    if (i < n && s.charAt(i) == '.') {
                        i++;
                        int start = i;
                        while (i < n && Character.isDigit(s.charAt(i))) {
                            i++;
                        }
                        digits = i - start;
                        if (digits == 0 || digits > 7) {
                            throw conversionError();
                        }
                        nanos = num(s, start, i);
                        for (int k = digits; k < 9; k++) {
                            nanos *= 10;
                        }
                    }
                }
                time = LocalTime.of(h, m, sec, (int) nanos);
            }
            while (i < n && s.charAt(i) == ' ') {
                i++;
            }
            if (i < n) {
                char c = s.charAt(i);
                if (c == 'Z' && i + 1 == n) {
                    off = ZoneOffset.UTC;
                    i++;
                } else if ((c == '+' || c == '-') && n - i == 6 && s.charAt(i + 3) == ':') {
                    int oh = num(s, i + 1, i + 3);
                    int om = num(s, i + 4, i + 6);
                    int total = oh * 60 + om;
                    if (oh > 14 || om > 59 || total > 840) {
                        throw conversionError();
                    }
                    off = ZoneOffset.ofTotalSeconds((c == '-' ? -total : total) * 60);
                    i = n;
                } else {
                    throw conversionError();
                }
            }
        } catch (DateTimeException | StringIndexOutOfBoundsException e) {
            throw conversionError();
        }
        if (i != n || date == null && time == null) {
            throw conversionError();
        }
        return new TemporalText(date, time, digits, off);
    }

    private static int num(String s, int from, int to) throws SqlServerError {
        if (to > s.length() || from >= to) {
            throw conversionError();
        }
        int v = 0;
        for (int k = from; k < to; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') {
                throw conversionError();
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    LocalDate dateOrDefault() {
        return date != null ? date : LocalDate.of(1900, 1, 1);
    }

    LocalTime timeOrMidnight() {
        return time != null ? time : LocalTime.MIDNIGHT;
    }
}
