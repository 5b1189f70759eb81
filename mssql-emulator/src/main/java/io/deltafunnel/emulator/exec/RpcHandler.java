package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.emulator.wire.RpcRequest;
import io.deltafunnel.emulator.wire.SqlParam;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Executes RPC requests: sp_executesql, sp_prepare, sp_prepexec, sp_execute, sp_unprepare. */
final class RpcHandler {
    private static final TypeInfo INT_TYPE = TypeInfo.of(TypeId.INTN, 4);

    private final Session s;
    private final Response r;

    RpcHandler(Session s, Response r) {
        this.s = s;
        this.r = r;
    }

    void handle(TdsReader reader) throws IOException {
        for (RpcRequest call : RpcRequest.readAll(reader)) {
            boolean ok = call(call);
            int status = (ok ? 0 : DoneStatus.ERROR) | (s.inTransaction() ? DoneStatus.INXACT : 0);
            r.done(TokenType.DONEPROC, status, DoneStatus.CMD_EXECUTE, 0);
        }
    }

    private boolean call(RpcRequest c) throws IOException {
        List<SqlParam> p = c.params;
        try {
            switch (c.procId) {
                case RpcRequest.SP_EXECUTESQL: {
                    String sql = stringParam(p, 0, c);
                    boolean ok = run(sql, bind(p, 2, p.size() > 1 ? (String) p.get(1).value : null));
                    TokenWriter.returnStatus(r.token(), ok ? 0 : 1);
                    return ok;
                }
                case RpcRequest.SP_PREPEXEC: {
                    String decl = p.size() > 1 ? (String) p.get(1).value : null;
                    String sql = stringParam(p, 2, c);
                    int handle = s.prepared.prepare(sql);
                    s.prepared.declarations(handle, decl);
                    boolean ok = run(sql, bind(p, 3, decl));
                    TokenWriter.returnStatus(r.token(), ok ? 0 : 1);
                    TokenWriter.returnValue(r.token(), 0, p.get(0).name, INT_TYPE, handle);
                    return ok;
                }
                case RpcRequest.SP_PREPARE: {
                    String decl = p.size() > 1 ? (String) p.get(1).value : null;
                    String sql = stringParam(p, 2, c);
                    int handle = s.prepared.prepare(sql);
                    s.prepared.declarations(handle, decl);
                    TokenWriter.returnStatus(r.token(), 0);
                    TokenWriter.returnValue(r.token(), 0, p.get(0).name, INT_TYPE, handle);
                    return true;
                }
                case RpcRequest.SP_EXECUTE: {
                    int handle = intParam(p, 0, c);
                    PreparedHandles.PreparedSql ps = s.prepared.get(handle);
                    boolean ok = run(ps.sql, bind(p, 1, ps.declarations));
                    TokenWriter.returnStatus(r.token(), ok ? 0 : 1);
                    return ok;
                }
                case RpcRequest.SP_UNPREPARE:
                    s.prepared.unprepare(intParam(p, 0, c));
                    TokenWriter.returnStatus(r.token(), 0);
                    return true;
                default:
                    throw ErrorCatalog.NO_SUCH_PROCEDURE.error("Could not find stored procedure '" + c.displayName()
                            + "' (mssql-emulator implements sp_executesql, sp_prepare, sp_prepexec, sp_execute and"
                            + " sp_unprepare).");
            }
        } catch (SqlServerError e) {
            r.error(e);
            TokenWriter.returnStatus(r.token(), 1);
            return false;
        }
    }

    private boolean run(String sql, Map<String, SqlParam> vars) throws IOException {
        return new BatchExecutor(s, r, vars, true).executeBatch(sql);
    }

    private static String stringParam(List<SqlParam> p, int i, RpcRequest c) throws SqlServerError {
        if (p.size() <= i || !(p.get(i).value instanceof String)) {
            throw ErrorCatalog.PARAMETER_TYPE.error("Procedure " + c.displayName() + " expects parameter "
                    + (i + 1) + " of type 'ntext/nchar/nvarchar'.");
        }
        return (String) p.get(i).value;
    }

    private static int intParam(List<SqlParam> p, int i, RpcRequest c) throws SqlServerError {
        if (p.size() <= i || !(p.get(i).value instanceof Number)) {
            throw ErrorCatalog.TOO_MANY_ARGUMENTS.error("Procedure " + c.displayName() + " expects an int handle.");
        }
        return ((Number) p.get(i).value).intValue();
    }

    /** Binds value parameters (from index {@code first}) to names: explicit names, else the declaration order. */
    static Map<String, SqlParam> bind(List<SqlParam> p, int first, String declarations) {
        List<String> declared = declaredNames(declarations);
        Map<String, SqlParam> vars = new HashMap<>();
        for (int i = first; i < p.size(); i++) {
            SqlParam sp = p.get(i);
            String name = sp.name;
            if (name == null || name.isEmpty()) {
                int k = i - first;
                name = k < declared.size() ? declared.get(k) : "@P" + k;
            }
            vars.put(name.toLowerCase(Locale.ROOT), sp);
        }
        return vars;
    }

    /** "@P0 int,@P1 nvarchar(4000) OUTPUT" -> [@P0, @P1]. */
    static List<String> declaredNames(String declarations) {
        List<String> out = new ArrayList<>();
        if (declarations == null) {
            return out;
        }
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        for (char ch : declarations.toCharArray()) {
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            }
            if (ch == ',' && depth == 0) {
                addName(out, cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        addName(out, cur.toString());
        return out;
    }

    private static void addName(List<String> out, String decl) {
        String d = decl.trim();
        if (d.isEmpty()) {
            return;
        }
        int sp = 0;
        while (sp < d.length() && !Character.isWhitespace(d.charAt(sp))) {
            sp++;
        }
        out.add(d.substring(0, sp));
    }
}
