package io.deltafunnel.emulator;

import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.Packet;
import io.deltafunnel.tds.PacketReader;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PacketWriter;
import io.deltafunnel.tds.PreloginOptions;
import io.deltafunnel.tds.PreloginTls;
import io.deltafunnel.tds.ServerMessage;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TlsStreams;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TrustAllCertificates;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;

/**
 * A minimal TDS client built on the io.deltafunnel.tds vocabulary, for requests mssql-jdbc cannot be made to send
 * (transaction manager requests, bulk rows the driver would reject client-side). A test class only.
 *
 * <p>Plain mode ({@code tls == false}) asks for ENCRYPT_NOT_SUP and talks TDS in the clear (the emulator accepts
 * that). TLS mode asks for ENCRYPT_ON, runs the TDS 7.x TLS 1.2 handshake inside PRELOGIN packets with the
 * project's {@link PreloginTls}, and then sends LOGIN7 and everything after it encrypted (full encryption, as a
 * real SQL Server requires at least for the login). The server certificate is trusted without checks: the emulator's
 * and the SQL Server container's certificates are self-signed. Not for production use.
 */
public final class RawTdsClient implements AutoCloseable {
    private final Socket socket;
    private final PacketReader reader;
    private final PacketWriter writer;
    private final boolean tls;

    /** What the server answered: error numbers, ENVCHANGE types, DONE statuses and row counts. */
    public static final class Reply {
        public final List<Integer> errors = new ArrayList<>();
        public final List<Integer> envChanges = new ArrayList<>();
        public final List<Integer> doneStatuses = new ArrayList<>();
        public final List<Long> doneCounts = new ArrayList<>();
        public final List<String> messages = new ArrayList<>();
        /** State and severity class of each error, same order as {@link #errors}. */
        public final List<Integer> states = new ArrayList<>();
        public final List<Integer> severities = new ArrayList<>();
        /** The descriptor of a BEGIN_TRANSACTION ENVCHANGE in this reply, or null. */
        public Long beganTransaction;
    }

    /** A plain (unencrypted) session to the emulator on localhost. */
    RawTdsClient(int port, String user, String password) throws IOException {
        this("localhost", port, user, password, false);
    }

    /**
     * Connects and logs in; {@code tls} selects ENCRYPT_ON with a PRELOGIN-wrapped TLS 1.2 handshake (required by
     * SQL Server) instead of a plain session. The caller owns the client and closes it.
     *
     * @throws IOException the connection, the TLS handshake or the login failed
     */
    public RawTdsClient(String host, int port, String user, String password, boolean tls) throws IOException {
        this.tls = tls;
        socket = new Socket(host, port);
        try {
            socket.setTcpNoDelay(true);
            InputStream rawIn = new BufferedInputStream(socket.getInputStream(), 65536);
            OutputStream rawOut = socket.getOutputStream();
            reader = new PacketReader(rawIn);
            writer = new PacketWriter(new BufferedOutputStream(rawOut, 65536), 4096);
            int serverEncryption = prelogin();
            if (tls) {
                if (serverEncryption != PreloginOptions.ENCRYPT_ON && serverEncryption != PreloginOptions.ENCRYPT_REQ) {
                    throw new IOException("asked for ENCRYPT_ON, the server " + host + ":" + port
                            + " answered PRELOGIN ENCRYPTION=" + serverEncryption);
                }
                TlsStreams streams = startTls(host, port, rawIn, rawOut);
                reader.setInput(new BufferedInputStream(streams.input(), 65536));
                writer.setOutput(new BufferedOutputStream(streams.output(), 65536));
            } else if (serverEncryption != PreloginOptions.ENCRYPT_NOT_SUP) {
                throw new IOException("asked for ENCRYPT_NOT_SUP, the server " + host + ":" + port
                        + " answered PRELOGIN ENCRYPTION=" + serverEncryption + " (connect with tls=true)");
            }
            Reply r = send(PacketType.LOGIN7, login7(user, password));
            if (!r.errors.isEmpty()) {
                throw new IOException("login failed: " + r.messages);
            }
        } catch (IOException | RuntimeException e) {
            try {
                socket.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** True if this session is encrypted (TLS mode). */
    public boolean tls() {
        return tls;
    }

    /** Sends PRELOGIN (VERSION, ENCRYPTION) and returns the server's ENCRYPTION answer. */
    private int prelogin() throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeByte(0).writeShortBigEndian(11).writeShortBigEndian(6);
        w.writeByte(1).writeShortBigEndian(17).writeShortBigEndian(1);
        w.writeByte(0xFF);
        w.writeByte(16).writeByte(0).writeShortBigEndian(0).writeShort(0);
        w.writeByte(tls ? PreloginOptions.ENCRYPT_ON : PreloginOptions.ENCRYPT_NOT_SUP);
        writer.writeMessage(PacketType.PRELOGIN, w.array(), 0, w.size());
        Map<Integer, byte[]> options = PreloginOptions.parse(readMessage());
        int encryption = PreloginOptions.byteOption(options, PreloginOptions.ENCRYPTION);
        if (encryption < 0) {
            throw new IOException("PRELOGIN reply without ENCRYPTION option");
        }
        return encryption;
    }

    /** TDS 7.x: the TLS 1.2 handshake records travel in PRELOGIN packets, then TLS records flow raw. */
    private TlsStreams startTls(String host, int port, InputStream rawIn, OutputStream rawOut) throws IOException {
        SSLEngine engine;
        try {
            SSLContext ctx = SSLContext.getInstance("TLSv1.2");
            ctx.init(null, new TrustManager[] {new TrustAllCertificates()}, null);
            engine = ctx.createSSLEngine(host, port);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS 1.2: " + e.getMessage(), e);
        }
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        // SQL Server answers in PRELOGIN packets; older servers used TABULAR_RESULT
        PreloginTls.Carrier carrier = PreloginTls.packetCarrier(reader, writer, "server", PacketType.PRELOGIN,
                PacketType.TABULAR_RESULT);
        return PreloginTls.handshake(engine, carrier, rawIn, rawOut);
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
    public byte[] allHeaders() {
        return allHeaders(transaction);
    }

    public static byte[] allHeaders(long descriptor) {
        TdsWriter w = new TdsWriter();
        w.writeInt(22).writeInt(18).writeShort(2).writeLong(descriptor).writeInt(1);
        return w.toByteArray();
    }

    /** A SQL batch naming {@code descriptor} as its transaction, whatever the session's is. */
    public Reply sqlBatch(String sql, long descriptor) throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeBytes(allHeaders(descriptor)).writeUnicode(sql);
        return send(PacketType.SQL_BATCH, w.toByteArray());
    }

    public Reply sqlBatch(String sql) throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeBytes(allHeaders()).writeUnicode(sql);
        return send(PacketType.SQL_BATCH, w.toByteArray());
    }

    /** Transaction manager request: 5 BEGIN, 7 COMMIT, 8 ROLLBACK. */
    public Reply transactionManager(int requestType) throws IOException {
        TdsWriter w = new TdsWriter();
        w.writeBytes(allHeaders()).writeShort(requestType);
        if (requestType == 5) {
            w.writeByte(0).writeByte(0);
        } else {
            w.writeByte(0).writeByte(0);
        }
        return send(PacketType.TRANSACTION_MANAGER, w.toByteArray());
    }

    public Reply bulkLoad(byte[] payload) throws IOException {
        return send(PacketType.BULK_LOAD, payload);
    }

    public Reply send(int type, byte[] payload) throws IOException {
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
