package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

/**
 * Builds the body of {@link DirectTdsConnection#execute(String, Object...)}'s RPC request (MS-TDS 2.2.6.6): a call of
 * {@code sp_executesql} with the statement, its parameter declarations and the values as typed RPC parameters, so
 * values never enter the SQL text. The caller adds the packet header and ALL_HEADERS. (The emulator's
 * {@code RpcRequest} is the other side: it decodes the request.)
 */
final class RpcRequestBuilder {

    /** sp_executesql's well-known procedure id (MS-TDS 2.2.6.6). */
    private static final int SP_EXECUTESQL = 10;

    private RpcRequestBuilder() {
    }

    /** The RPC body for {@code sql} with {@code params} (at least one; String, Long, Integer or null). */
    static TdsWriter executeSql(String sql, Object... params) {
        TdsWriter body = new TdsWriter(256 + 2 * sql.length());
        body.writeShort(0xFFFF).writeShort(SP_EXECUTESQL).writeShort(0); // ProcIDSwitch, ProcID, option flags
        StringBuilder declarations = new StringBuilder();
        TypeInfo[] types = new TypeInfo[params.length];
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            String declared;
            if (p == null || p instanceof String) {
                boolean max = p != null && ((String) p).length() > 4000;
                types[i] = TypeInfo.of(TypeId.NVARCHAR, max ? TypeId.USHORT_MAX : 8000);
                declared = max ? "nvarchar(max)" : "nvarchar(4000)";
            } else if (p instanceof Long) {
                types[i] = TypeInfo.of(TypeId.INTN, 8);
                declared = "bigint";
            } else if (p instanceof Integer) {
                types[i] = TypeInfo.of(TypeId.INTN, 4);
                declared = "int";
            } else {
                throw new IllegalArgumentException("unsupported parameter type " + p.getClass().getName());
            }
            declarations.append(i == 0 ? "" : ",").append("@P").append(i).append(' ').append(declared);
        }
        rpcParam(body, "", TypeInfo.of(TypeId.NVARCHAR, TypeId.USHORT_MAX), numberPlaceholders(sql));
        rpcParam(body, "", TypeInfo.of(TypeId.NVARCHAR, TypeId.USHORT_MAX), declarations.toString());
        for (int i = 0; i < params.length; i++) {
            rpcParam(body, "@P" + i, types[i], params[i]);
        }
        return body;
    }

    private static void rpcParam(TdsWriter w, String name, TypeInfo type, Object value) {
        w.writeByte(name.length());
        for (int i = 0; i < name.length(); i++) {
            w.writeShort(name.charAt(i));
        }
        w.writeByte(0); // status flags: input parameter
        type.write(w);
        ValueCodec.write(w, type, value);
    }

    /** {@code ?} to {@code @P0, @P1, ...}, skipping '...' strings, [...] identifiers and comments. */
    static String numberPlaceholders(String sql) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int n = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            int end = -1;
            if (c == '\'' || c == '[' || c == '"') {
                char close = c == '[' ? ']' : c;
                end = i + 1;
                while (end < sql.length()) {
                    if (sql.charAt(end) == close) {
                        if (end + 1 < sql.length() && sql.charAt(end + 1) == close) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                end = sql.indexOf('\n', i);
                end = end < 0 ? sql.length() - 1 : end;
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                end = sql.indexOf("*/", i + 2);
                end = end < 0 ? sql.length() - 1 : end + 1;
            }
            if (end >= 0) {
                end = Math.min(end, sql.length() - 1);
                out.append(sql, i, end + 1);
                i = end;
            } else if (c == '?') {
                out.append("@P").append(n++);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
