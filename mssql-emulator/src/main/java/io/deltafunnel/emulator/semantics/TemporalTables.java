package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.Token;
import java.util.List;

/**
 * System-versioned temporal tables ({@code PERIOD FOR SYSTEM_TIME}, {@code GENERATED ALWAYS AS ROW START|END},
 * {@code WITH (SYSTEM_VERSIONING = ON ...)}, {@code ALTER TABLE ... SET (SYSTEM_VERSIONING = ...)}) are not
 * supported: CREATE TABLE and ALTER TABLE naming them are refused with 50100 naming the feature, instead of being
 * created as ordinary tables (listed in the README's differences).
 */
public final class TemporalTables {
    private TemporalTables() {
    }

    /** Throws 50100 when {@code toks} (a CREATE TABLE or ALTER TABLE statement) declares system versioning. */
    public static void refuse(List<Token> toks) throws SqlServerError {
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            String what = null;
            if (t.is("PERIOD") && next(toks, i, "FOR") && next(toks, i + 1, "SYSTEM_TIME")) {
                what = "PERIOD FOR SYSTEM_TIME";
            } else if (t.is("GENERATED") && next(toks, i, "ALWAYS")) {
                what = "GENERATED ALWAYS AS ROW START/END columns";
            } else if (t.is("SYSTEM_VERSIONING")) {
                what = "SYSTEM_VERSIONING";
            }
            if (what != null) {
                throw SqlServerError.unsupported("system-versioned temporal tables (" + what + ")");
            }
        }
    }

    private static boolean next(List<Token> toks, int i, String word) {
        return i + 1 < toks.size() && toks.get(i + 1).is(word);
    }
}
