package io.deltafunnel.emulator;

import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.Packet;
import io.deltafunnel.tds.PacketReader;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PacketWriter;
import io.deltafunnel.tds.ServerMessage;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal TDS client built on the io.deltafunnel.tds vocabulary, for requests mssql-jdbc cannot be made to send
 * (transaction manager requests, bulk rows the driver would reject client-side). No TLS: it asks for NOT_SUP.
 */
final class RawTdsClient implements AutoCloseable {
    private final Socket socket;
    private final PacketReader reader;
    private final PacketWriter writer;

    /** What the server answered: error numbers, ENVCHANGE types, DONE statuses and row counts. */
    static final class Reply {
        final List<Integer> errors = new ArrayList<>();
        final List<Integer> envChanges = new ArrayList<>();
        final List<Integer> doneStatuses = new ArrayList<>();
        final List<Long> doneCounts = new ArrayList<>();
        final List<String> messages = new ArrayList<>();
        /** State and severity class of each error, same order as {@link #errors}. */
        final List<Integer> states = new ArrayList<>();
        final List<Integer> severities = new ArrayList<>();
        /** The descriptor of a BEGIN_TRANSACTION ENVCHANGE in this reply, or null. */
        Long beganTransaction;
    }

    RawTdsClient(int port, String user, String password) throws IOException {
        socket = new Socket("localhost", port);
        reader = new PacketReader(socket.getInputStream());
        writer = new PacketWriter(socket.getOutputStream(), 4096);
        prelogin();
        Reply r = send(PacketType.LOGIN7, login7(user, password));
        if (!r.errors.isEmpty()) {
            throw new IOException("login failed: " + r.messages);
        }
    }

    private void prelogin() throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeByte(0).writeShortBigEndian(11).writeShortBigEndian(6);
        w.writeByte(1).writeShortBigEndian(17).writeShortBigEndian(1);
        w.writeByte(0xFF);
        w.writeByte(16).writeByte(0).writeShortBigEndian(0).writeShort(0);
        w.writeByte(2); // ENCRYPT_NOT_SUP
        writer.writeMessage(PacketType.PRELOGIN, w.array(), 0, w.size());
        readMessage();
    }

    private static byte[] login7(String user, String password) {
        String[] fields = {"raw-host", user, password, "raw-test", "localhost", "", "raw", "", "master"};
        int fixed = 94;
        TdsWriter w = new TdsWriter();
        int total = fixed;
        for (String f : fields) {
            total += 2 * f.length();
        }
        w.writeInt(total).writeIntBigEndian(0x74000004).writeInt(4096).writeInt(7).writeInt(1).writeInt(0);
        w.writeByte(0xE0).writeByte(0x03).writeByte(0).writeByte(0).writeInt(0).writeInt(0x0409);
        int offset = fixed;
        int[] order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        for (int i : order) {
            if (i == 5) { // extension slot (unused)
                w.writeShort(offset).writeShort(0);
                continue;
            }
            w.writeShort(offset).writeShort(fields[i].length());
            offset += 2 * fields[i].length();
        }
        w.writeBytes(new byte[6]); // client id
        w.writeShort(offset).writeShort(0); // SSPI
        w.writeShort(offset).writeShort(0); // attach db file
        w.writeShort(offset).writeShort(0); // change password
        w.writeInt(0); // SSPI long
        for (int i : order) {
            if (i == 2) {
                byte[] b = fields[i].getBytes(StandardCharsets.UTF_16LE);
                for (byte x : b) {
                    int v = x & 0xFF;
                    w.writeByte(((v << 4 & 0xF0) | (v >>> 4)) ^ 0xA5);
                }
            } else if (i != 5) {
                w.writeUnicode(fields[i]);
            }
        }
        return w.toByteArray();
    }

    /** The open transaction's descriptor from the last BEGIN_TRANSACTION ENVCHANGE (0 outside one). */
    private long transaction;

    /** ALL_HEADERS naming the open transaction, as a correct client sends it. */
    byte[] allHeaders() {
        return allHeaders(transaction);
    }

    static byte[] allHeaders(long descriptor) {
        TdsWriter w = new TdsWriter();
        w.writeInt(22).writeInt(18).writeShort(2).writeLong(descriptor).writeInt(1);
        return w.toByteArray();
    }

    /** A SQL batch naming {@code descriptor} as its transaction, whatever the session's is. */
    Reply sqlBatch(String sql, long descriptor) throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeBytes(allHeaders(descriptor)).writeUnicode(sql);
        return send(PacketType.SQL_BATCH, w.toByteArray());
    }

    Reply sqlBatch(String sql) throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeBytes(allHeaders()).writeUnicode(sql);
        return send(PacketType.SQL_BATCH, w.toByteArray());
    }

    /** Transaction manager request: 5 BEGIN, 7 COMMIT, 8 ROLLBACK. */
    Reply transactionManager(int requestType) throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeBytes(allHeaders()).writeShort(requestType);
        if (requestType == 5) {
            w.writeByte(0).writeByte(0);
        } else {
            w.writeByte(0).writeByte(0);
        }
        return send(PacketType.TRANSACTION_MANAGER, w.toByteArray());
    }

    Reply bulkLoad(byte[] payload) throws IOException {
        return send(PacketType.BULK_LOAD, payload);
    }

    Reply send(int type, byte[] payload) throws IOException {
        writer.writeMessage(type, payload, 0, payload.length);
        Reply r = parse(readMessage());
        if (r.beganTransaction != null) {
            transaction = r.beganTransaction;
        } else if (r.envChanges.contains(EnvChangeType.COMMIT_TRANSACTION)
                || r.envChanges.contains(EnvChangeType.ROLLBACK_TRANSACTION)) {
            transaction = 0;
        }
        return r;
    }

    private byte[] readMessage() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Packet p = new Packet();
        do {
            if (!reader.read(p)) {
                throw new IOException("server closed the connection");
            }
            out.write(p.payload, 0, p.payloadLength);
        } while (!p.isEndOfMessage());
        return out.toByteArray();
    }

    private static Reply parse(byte[] msg) {
        Reply r = new Reply();
        TdsReader rd = new TdsReader(msg);
        while (!rd.atEnd()) {
            int token = rd.readUnsignedByte();
            switch (token) {
                case TokenType.ERROR:
                case TokenType.INFO: {
                    ServerMessage m = ServerMessage.read(rd);
                    if (token == TokenType.ERROR) {
                        r.errors.add(m.number());
                        r.messages.add(m.text());
                        r.states.add(m.state());
                        r.severities.add(m.severity());
                    }
                    break;
                }
                case TokenType.ENVCHANGE: {
                    int len = rd.readUnsignedShort();
                    byte[] body = rd.readBytes(len);
                    r.envChanges.add(body[0] & 0xFF);
                    if ((body[0] & 0xFF) == EnvChangeType.BEGIN_TRANSACTION && body.length >= 10) {
                        r.beganTransaction = new TdsReader(body, 2, 8).readLong();
                    }
                    break;
                }
                case TokenType.LOGINACK:
                    rd.skip(rd.readUnsignedShort());
                    break;
                case TokenType.RETURNSTATUS:
                    rd.readInt();
                    break;
                case TokenType.DONE:
                case TokenType.DONEPROC:
                case TokenType.DONEINPROC:
                    r.doneStatuses.add(rd.readUnsignedShort());
                    rd.readUnsignedShort();
                    r.doneCounts.add(rd.readLong());
                    break;
                default:
                    throw new IllegalStateException("raw client cannot parse token " + token);
            }
        }
        return r;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
