package io.deltafunnel.tds;

import java.util.List;

/** Encoders for response tokens (DONE*, ERROR/INFO, ENVCHANGE, LOGINACK, COLMETADATA, RETURNSTATUS, RETURNVALUE). */
public final class TokenWriter {
    /** COLMETADATA column flags (MS-TDS 2.2.7.4). */
    public static final int FLAG_NULLABLE = 0x0001;
    public static final int FLAG_CASE_SENSITIVE = 0x0002;
    public static final int FLAG_UPDATEABLE_UNKNOWN = 0x0008;
    public static final int FLAG_IDENTITY = 0x0010;
    public static final int FLAG_COMPUTED = 0x0020;

    /** One COLMETADATA column. */
    public static final class Column {
        public final String name;
        public final TypeInfo type;
        public final int flags;

        public Column(String name, TypeInfo type, int flags) {
            this.name = name;
            this.type = type;
            this.flags = flags;
        }
    }

    private TokenWriter() {
    }

    public static void done(TdsWriter w, int token, int status, int curCmd, long rowCount) {
        w.writeByte(token).writeShort(status).writeShort(curCmd).writeLong(rowCount);
    }

    public static void message(TdsWriter w, int token, int number, int state, int severity, String text,
            String serverName, String procName, int line) {
        String msg = text.length() > 4000 ? text.substring(0, 4000) : text;
        int start = w.size();
        w.writeByte(token).writeShort(0);
        w.writeInt(number).writeByte(state).writeByte(severity);
        w.writeUsVarchar(msg);
        w.writeBVarchar(serverName);
        w.writeBVarchar(procName);
        w.writeInt(line);
        w.setShortAt(start + 1, w.size() - start - 3);
    }

    public static void envChangeString(TdsWriter w, int type, String newValue, String oldValue) {
        int start = w.size();
        w.writeByte(TokenType.ENVCHANGE).writeShort(0).writeByte(type);
        w.writeBVarchar(newValue);
        w.writeBVarchar(oldValue);
        w.setShortAt(start + 1, w.size() - start - 3);
    }

    public static void envChangeBytes(TdsWriter w, int type, byte[] newValue, byte[] oldValue) {
        int start = w.size();
        w.writeByte(TokenType.ENVCHANGE).writeShort(0).writeByte(type);
        w.writeBVarbyte(newValue);
        w.writeBVarbyte(oldValue);
        w.setShortAt(start + 1, w.size() - start - 3);
    }

    /** ENVCHANGE type 20 (routing): protocol 0 (TCP), port, alternate server; empty old value. */
    public static void envChangeRouting(TdsWriter w, int port, String server) {
        int start = w.size();
        w.writeByte(TokenType.ENVCHANGE).writeShort(0).writeByte(EnvChangeType.ROUTING);
        w.writeShort(1 + 2 + 2 + 2 * server.length());
        w.writeByte(0).writeShort(port).writeUsVarchar(server);
        w.writeShort(0);
        w.setShortAt(start + 1, w.size() - start - 3);
    }

    /** FEATUREEXTACK: one (feature id, data) pair per entry, then the 0xFF terminator. */
    public static void featureExtAck(TdsWriter w, int[] featureIds, byte[][] data) {
        w.writeByte(TokenType.FEATUREEXTACK);
        for (int i = 0; i < featureIds.length; i++) {
            w.writeByte(featureIds[i]).writeInt(data[i].length).writeBytes(data[i]);
        }
        w.writeByte(Login7.FEATURE_TERMINATOR);
    }

    public static void loginAck(TdsWriter w, int tdsVersion, String progName, int major, int minor, int build) {
        int start = w.size();
        w.writeByte(TokenType.LOGINACK).writeShort(0);
        w.writeByte(1); // SQL_TSQL interface
        w.writeIntBigEndian(tdsVersion);
        w.writeBVarchar(progName);
        w.writeByte(major).writeByte(minor).writeShortBigEndian(build);
        w.setShortAt(start + 1, w.size() - start - 3);
    }

    public static void colMetadata(TdsWriter w, List<Column> columns) {
        w.writeByte(TokenType.COLMETADATA).writeShort(columns.size());
        for (Column c : columns) {
            w.writeInt(0); // UserType
            w.writeShort(c.flags);
            c.type.write(w);
            w.writeBVarchar(c.name);
        }
    }

    public static void returnStatus(TdsWriter w, int value) {
        w.writeByte(TokenType.RETURNSTATUS).writeInt(value);
    }

    /** RETURNVALUE for an OUTPUT parameter. */
    public static void returnValue(TdsWriter w, int ordinal, String name, TypeInfo type, Object value) {
        w.writeByte(TokenType.RETURNVALUE).writeShort(ordinal);
        w.writeBVarchar(name);
        w.writeByte(0x01); // output parameter
        w.writeInt(0); // UserType
        w.writeShort(FLAG_NULLABLE);
        type.write(w);
        ValueCodec.write(w, type, value);
    }
}
