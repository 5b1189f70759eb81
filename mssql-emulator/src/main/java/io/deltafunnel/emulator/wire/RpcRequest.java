package io.deltafunnel.emulator.wire;

import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

import java.util.ArrayList;
import java.util.List;

/** One RPC call of an RPC request (MS-TDS 2.2.6.6): procedure id or name, options and typed parameters. */
public final class RpcRequest {
    static final int SP_CURSOR = 1;
    public static final int SP_EXECUTESQL = 10;
    public static final int SP_PREPARE = 11;
    public static final int SP_EXECUTE = 12;
    public static final int SP_PREPEXEC = 13;
    static final int SP_PREPEXECRPC = 14;
    public static final int SP_UNPREPARE = 15;

    public final int procId;
    final String procName;
    public final List<SqlParam> params;

    private RpcRequest(int procId, String procName, List<SqlParam> params) {
        this.procId = procId;
        this.procName = procName;
        this.params = params;
    }

    /** Reads all calls of the request (separated by 0xFF / 0x80 batch flags). */
    public static List<RpcRequest> readAll(TdsReader r) {
        List<RpcRequest> out = new ArrayList<>();
        while (!r.atEnd()) {
            out.add(read(r));
            int next = r.peekUnsignedByte();
            if (next == 0xFF || next == 0x80 || next == 0xFE) {
                r.readUnsignedByte();
            } else if (next >= 0) {
                throw new TdsProtocolException("unexpected byte " + next + " after RPC parameters");
            }
        }
        return out;
    }

    private static RpcRequest read(TdsReader r) {
        int nameLen = r.readUnsignedShort();
        int procId = 0;
        String name = null;
        if (nameLen == 0xFFFF) {
            procId = r.readUnsignedShort();
        } else {
            name = r.readUnicode(nameLen);
            procId = idOf(name);
        }
        r.readUnsignedShort(); // option flags
        List<SqlParam> params = new ArrayList<>();
        while (true) {
            int next = r.peekUnsignedByte();
            if (next < 0 || next == 0xFF || next == 0x80 || next == 0xFE) {
                break;
            }
            String pname = r.readBVarchar();
            int status = r.readUnsignedByte();
            if ((status & 0x08) != 0) {
                throw new TdsProtocolException("encrypted RPC parameters are not supported");
            }
            TypeInfo t = TypeInfo.read(r);
            Object v = ValueCodec.read(r, t);
            params.add(new SqlParam(pname, t, v, (status & 0x01) != 0));
        }
        return new RpcRequest(procId, name, params);
    }

    private static int idOf(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        int dot = n.lastIndexOf('.');
        if (dot >= 0) {
            n = n.substring(dot + 1);
        }
        switch (n) {
            case "sp_executesql": return SP_EXECUTESQL;
            case "sp_prepare": return SP_PREPARE;
            case "sp_execute": return SP_EXECUTE;
            case "sp_prepexec": return SP_PREPEXEC;
            case "sp_unprepare": return SP_UNPREPARE;
            default: return 0;
        }
    }

    public String displayName() {
        if (procName != null) {
            return procName;
        }
        switch (procId) {
            case SP_EXECUTESQL: return "sp_executesql";
            case SP_PREPARE: return "sp_prepare";
            case SP_EXECUTE: return "sp_execute";
            case SP_PREPEXEC: return "sp_prepexec";
            case SP_PREPEXECRPC: return "sp_prepexecrpc";
            case SP_UNPREPARE: return "sp_unprepare";
            default: return "procedure id " + procId;
        }
    }
}
