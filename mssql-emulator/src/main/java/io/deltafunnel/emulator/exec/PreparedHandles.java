package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.HashMap;
import java.util.Map;

/** One session's prepared statement handles (sp_prepare, sp_prepexec, sp_execute, sp_unprepare): handle to SQL. */
final class PreparedHandles {
    /** A prepared statement handle's SQL. */
    static final class PreparedSql {
        final String sql;
        String declarations;

        PreparedSql(String sql) {
            this.sql = sql;
        }
    }

    private final Map<Integer, PreparedSql> prepared = new HashMap<>();
    private int nextHandle = 1;

    int prepare(String sql) {
        int h = nextHandle++;
        prepared.put(h, new PreparedSql(sql));
        return h;
    }

    /** The handle's SQL; 8179 if this session has no such handle. */
    PreparedSql get(int handle) throws SqlServerError {
        PreparedSql p = prepared.get(handle);
        if (p == null) {
            throw ErrorCatalog.NO_PREPARED_HANDLE.error(
                    "Could not find prepared statement with handle " + handle + ".");
        }
        return p;
    }

    void declarations(int handle, String declarations) {
        PreparedSql p = prepared.get(handle);
        if (p != null) {
            p.declarations = declarations;
        }
    }

    void unprepare(int handle) {
        prepared.remove(handle);
    }

    /** sp_reset_connection: every handle goes. */
    void clear() {
        prepared.clear();
    }
}
