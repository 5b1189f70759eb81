package io.deltafunnel.tds;

/**
 * The body of an ERROR (0xAA) or INFO (0xAB) token (MS-TDS 2.2.7.10 / 2.2.7.13): what SQL Server says about a
 * failure or a notice. {@link TokenWriter#message} writes it; {@link #read} reads it back.
 *
 * @param number     the SQL Server error number (e.g. 2627)
 * @param state      the error state
 * @param severity   the class: 0-10 informational, 11-16 user errors, 17+ resource and system errors
 * @param text       the message text
 * @param serverName the server that raised it
 * @param procName   the procedure that raised it, or empty
 * @param line       the line of the batch or procedure, 1-based (0 when not applicable)
 */
public record ServerMessage(int number, int state, int severity, String text, String serverName, String procName,
        int line) {

    /** Reads the token's length and body; the token byte itself has already been read. */
    public static ServerMessage read(TdsReader r) {
        int len = r.readUnsignedShort();
        TdsReader t = new TdsReader(r.readBytes(len));
        int number = t.readInt();
        int state = t.readUnsignedByte();
        int severity = t.readUnsignedByte();
        String text = t.readUsVarchar();
        String server = t.readBVarchar();
        String proc = t.readBVarchar();
        int line = t.readInt();
        return new ServerMessage(number, state, severity, text, server, proc, line);
    }
}
