package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;
import io.deltafunnel.tds.TlsStreams;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Objects;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A minimal TDS 7.4 client connection of its own (no mssql-jdbc): PRELOGIN with TLS 1.2 (on by default; the
 * handshake travels in PRELOGIN packets, then raw TLS for the whole session), LOGIN7 with SQL authentication, the
 * packet size ENVCHANGE honoured, SQL_BATCH and BULK_LOAD messages. Server ERROR tokens become
 * {@link DirectTdsException}s. Result sets are not supported (only DONE/ERROR/INFO/ENVCHANGE replies).
 *
 * <p>EXPERIMENTAL: not used by the {@code deltafunnel-mssql} producer yet. Not thread-safe.
 */
public final class DirectTdsConnection implements AutoCloseable {

    static final int PT_SQL_BATCH = 0x01;
    static final int PT_REPLY = 0x04;
    static final int PT_LOGIN7 = 0x10;
    static final int PT_BULK_LOAD = 0x07;
    static final int PT_PRELOGIN = 0x12;

    private static final int ENCRYPT_OFF = 0x00;
    private static final int ENCRYPT_ON = 0x01;
    private static final int ENCRYPT_NOT_SUP = 0x02;
    private static final int ENCRYPT_REQ = 0x03;

    /** Connection settings. Encryption is on and the certificate is validated unless told otherwise. */
    public static final class Options {
        private String host = "localhost";
        private int port = 1433;
        private String database = "";
        private String user;
        private String password;
        private boolean encrypt = true;
        private boolean trustServerCertificate;
        private int packetSize = 8000;
        private int connectTimeoutMillis = 15_000;
        private String applicationName = "deltafunnel-direct";

        public Options host(String host) {
            this.host = Objects.requireNonNull(host);
            return this;
        }

        public Options port(int port) {
            this.port = port;
            return this;
        }

        public Options database(String database) {
            this.database = database == null ? "" : database;
            return this;
        }

        public Options user(String user) {
            this.user = user;
            return this;
        }

        public Options password(String password) {
            this.password = password;
            return this;
        }

        /** TLS for the whole session (default true). False asks for no encryption at all. */
        public Options encrypt(boolean encrypt) {
            this.encrypt = encrypt;
            return this;
        }

        /** Accept any server certificate (default false: default trust store plus host name check). */
        public Options trustServerCertificate(boolean trust) {
            this.trustServerCertificate = trust;
            return this;
        }

        public Options packetSize(int packetSize) {
            this.packetSize = packetSize;
            return this;
        }

        public Options connectTimeoutMillis(int millis) {
            this.connectTimeoutMillis = millis;
            return this;
        }

        /** Entra ID access token supplier (FEDAUTH). */
        public Options accessToken(java.util.function.Supplier<String> tokens) {
            throw new UnsupportedOperationException("FEDAUTH is not implemented yet");
        }

        public Options applicationName(String name) {
            this.applicationName = name;
            return this;
        }

        // Read access (for the URL parser's tests and diagnostics); the password and token have no getter.

        public String host() {
            return host;
        }

        public int port() {
            return port;
        }

        public String database() {
            return database;
        }

        public String user() {
            return user;
        }

        public boolean encrypt() {
            return encrypt;
        }

        public boolean trustServerCertificate() {
            return trustServerCertificate;
        }

        public int packetSize() {
            return packetSize;
        }
    }

    public static Options options() {
        return new Options();
    }

    /** sp_executesql's well-known procedure id (MS-TDS 2.2.6.6). */
    private static final int SP_EXECUTESQL = 10;

    private final Socket socket;
    /** The open transaction's descriptor from the server's ENVCHANGE; zeros outside a transaction. */
    private final byte[] transaction = new byte[8];
    private InputStream in;
    private OutputStream out;
    private int packetSize = 4096;
    private boolean encrypted;

    private DirectTdsConnection(Socket socket) {
        this.socket = socket;
    }

    /** Connects, negotiates encryption and logs in. */
    public static DirectTdsConnection open(Options o) throws IOException {
        Objects.requireNonNull(o.user, "user");
        Objects.requireNonNull(o.password, "password");
        Socket socket = new Socket();
        DirectTdsConnection c = new DirectTdsConnection(socket);
        try {
            socket.connect(new InetSocketAddress(o.host, o.port), o.connectTimeoutMillis);
            socket.setTcpNoDelay(true);
            c.in = new BufferedInputStream(socket.getInputStream(), 65536);
            c.out = new BufferedOutputStream(socket.getOutputStream(), 65536);
            c.prelogin(o);
            c.login(o);
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The negotiated packet size. */
    public int packetSize() {
        return packetSize;
    }

    /** Whether the session runs over TLS. */
    public boolean encrypted() {
        return encrypted;
    }

    // ---------------------------------------------------------------- PRELOGIN / TLS

    private void prelogin(Options o) throws IOException {
        // options: VERSION (0) 6 bytes, ENCRYPTION (1) 1 byte, terminator; header is 2*5+1 = 11 bytes
        TdsMessageWriter w = new TdsMessageWriter(out, PT_PRELOGIN, 4096);
        w.writeByte(0).writeByte(0).writeByte(11).writeByte(0).writeByte(6);
        w.writeByte(1).writeByte(0).writeByte(17).writeByte(0).writeByte(1);
        w.writeByte(0xFF);
        w.writeByte(1).writeByte(0).writeShort(0).writeShort(0); // client version 1.0.0.0
        w.writeByte(o.encrypt ? ENCRYPT_ON : ENCRYPT_NOT_SUP);
        w.end();
        byte[] reply = readMessage(PT_REPLY);
        int serverEncryption = -1;
        int i = 0;
        while (i < reply.length && (reply[i] & 0xFF) != 0xFF) {
            int token = reply[i] & 0xFF;
            int off = (reply[i + 1] & 0xFF) << 8 | (reply[i + 2] & 0xFF);
            int len = (reply[i + 3] & 0xFF) << 8 | (reply[i + 4] & 0xFF);
            if (token == 1 && len >= 1 && off < reply.length) {
                serverEncryption = reply[off] & 0xFF;
            }
            i += 5;
        }
        if (serverEncryption < 0) {
            throw new DirectTdsException("PRELOGIN reply without ENCRYPTION option");
        }
        boolean serverWantsTls = serverEncryption == ENCRYPT_ON || serverEncryption == ENCRYPT_REQ;
        if (o.encrypt && !serverWantsTls) {
            throw new DirectTdsException("encryption requested but the server does not support it (PRELOGIN "
                    + "ENCRYPTION=" + serverEncryption + ")");
        }
        if (!o.encrypt && serverEncryption == ENCRYPT_REQ) {
            throw new DirectTdsException("the server requires encryption; connect with encrypt=true");
        }
        if (!o.encrypt && serverEncryption == ENCRYPT_OFF) {
            throw new DirectTdsException("the server wants login-only encryption, which is not supported; "
                    + "connect with encrypt=true");
        }
        if (serverWantsTls) {
            startTls(o);
        }
    }

    private void startTls(Options o) throws IOException {
        SSLEngine engine;
        try {
            SSLContext ctx = SSLContext.getInstance("TLSv1.2");
            ctx.init(null, o.trustServerCertificate ? new TrustManager[] {new TrustAll()} : null, null);
            engine = ctx.createSSLEngine(o.host, o.port);
        } catch (GeneralSecurityException e) {
            throw new SSLException("cannot set up TLS: " + e.getMessage(), e);
        }
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        if (!o.trustServerCertificate) {
            SSLParameters p = engine.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(p);
        }
        engine.beginHandshake();
        int packetBuf = engine.getSession().getPacketBufferSize();
        ByteBuffer netIn = ByteBuffer.allocate(packetBuf * 2);
        netIn.flip();
        ByteBuffer netOut = ByteBuffer.allocate(packetBuf * 2);
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize() * 2);
        ByteBuffer empty = ByteBuffer.allocate(0);
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
        while (true) {
            switch (hs) {
                case NEED_WRAP -> {
                    netOut.clear();
                    SSLEngineResult r = engine.wrap(empty, netOut);
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                        netOut = ByteBuffer.allocate(netOut.capacity() * 2);
                        continue;
                    }
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS wrap failed: " + r.getStatus());
                    }
                    pending.write(netOut.array(), 0, netOut.position());
                    hs = r.getHandshakeStatus();
                    if (hs != SSLEngineResult.HandshakeStatus.NEED_WRAP
                            && hs != SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        sendPrelogin(pending);
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    SSLEngineResult r = engine.unwrap(netIn, app);
                    app.clear();
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        netIn = append(netIn, readPacket(PT_REPLY, PT_PRELOGIN));
                        hs = engine.getHandshakeStatus();
                        continue;
                    }
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS unwrap failed: " + r.getStatus());
                    }
                    hs = r.getHandshakeStatus();
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    hs = engine.getHandshakeStatus();
                }
                case FINISHED, NOT_HANDSHAKING -> {
                    sendPrelogin(pending);
                    TlsStreams tls = new TlsStreams(engine, in, out, netIn);
                    in = new BufferedInputStream(tls.input(), 65536);
                    out = new BufferedOutputStream(tls.output(), 65536);
                    encrypted = true;
                    return;
                }
                default -> throw new SSLException("unexpected handshake status " + hs);
            }
        }
    }

    private void sendPrelogin(ByteArrayOutputStream pending) throws IOException {
        if (pending.size() == 0) {
            return;
        }
        TdsMessageWriter w = new TdsMessageWriter(out, PT_PRELOGIN, 4096);
        w.writeBytes(pending.toByteArray());
        w.end();
        pending.reset();
    }

    private static ByteBuffer append(ByteBuffer buf, byte[] data) {
        buf.compact();
        if (buf.remaining() < data.length) {
            ByteBuffer bigger = ByteBuffer.allocate(buf.capacity() + data.length * 2);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
        buf.put(data);
        buf.flip();
        return buf;
    }

    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    // ---------------------------------------------------------------- LOGIN7

    private void login(Options o) throws IOException {
        String[] fields = {hostName(), o.user, o.password, o.applicationName, o.host, "", "deltafunnel", "",
                o.database};
        int fixed = 94;
        int total = fixed;
        for (String f : fields) {
            total += 2 * f.length();
        }
        TdsMessageWriter w = new TdsMessageWriter(out, PT_LOGIN7, 4096);
        w.writeInt(total);
        w.writeByte(0x74).writeByte(0x00).writeByte(0x00).writeByte(0x04); // TDS 7.4, big-endian on the wire
        w.writeInt(o.packetSize).writeInt(1).writeInt((int) ProcessHandle.current().pid()).writeInt(0);
        w.writeByte(0xE0).writeByte(0x03).writeByte(0).writeByte(0).writeInt(0).writeInt(0x0409);
        int offset = fixed;
        for (int i = 0; i < fields.length; i++) {
            if (i == 5) { // extension slot, unused
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
        for (int i = 0; i < fields.length; i++) {
            if (i == 2) {
                for (byte x : fields[i].getBytes(StandardCharsets.UTF_16LE)) {
                    int v = x & 0xFF;
                    w.writeByte(((v << 4 & 0xF0) | (v >>> 4)) ^ 0xA5);
                }
            } else if (i != 5) {
                w.writeChars(fields[i]);
            }
        }
        w.end();
        readReply();
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    // ---------------------------------------------------------------- requests

    /** Runs a SQL batch; returns the affected row count (DONE counts summed). */
    public long executeBatch(String sql) throws IOException {
        return executeBatchReply(sql).rowCount();
    }

    /** Runs a SQL batch; returns the whole reply (first result set and row count). */
    public DirectReply executeBatchReply(String sql) throws IOException {
        TdsMessageWriter w = new TdsMessageWriter(out, PT_SQL_BATCH, packetSize);
        allHeaders(w);
        w.writeChars(sql);
        w.end();
        return reply();
    }

    /**
     * Runs {@code sql} with bound parameters through {@code sp_executesql} (an RPC request): {@code ?} placeholders
     * (outside quoted strings, bracketed identifiers and comments) become {@code @P0, @P1, ...}; values may be
     * String (nvarchar), Long (bigint), Integer (int) or null. Values are never put into the SQL text.
     */
    public DirectReply execute(String sql, Object... params) throws IOException {
        if (params.length == 0) {
            return executeBatchReply(sql);
        }
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
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.RPC, packetSize);
        allHeaders(w);
        w.writeBytes(body.array(), 0, body.size());
        w.end();
        return reply();
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

    /** ALL_HEADERS with the transaction descriptor header: the open transaction's descriptor, one request. */
    private void allHeaders(TdsMessageWriter w) throws IOException {
        w.writeInt(22).writeInt(18).writeShort(2).writeBytes(transaction).writeInt(1);
    }

    /** True inside a transaction (the server's BEGIN TRANSACTION ENVCHANGE seen, no COMMIT/ROLLBACK since). */
    public boolean inTransaction() {
        for (byte b : transaction) {
            if (b != 0) {
                return true;
            }
        }
        return false;
    }

    /** Starts a BULK_LOAD message; the caller writes COLMETADATA, ROW tokens and DONE, then calls {@code end()}. */
    TdsMessageWriter beginBulkLoad() {
        return new TdsMessageWriter(out, PT_BULK_LOAD, packetSize);
    }

    /** Reads a reply message; throws the first ERROR token's {@link DirectTdsException}; returns the row count. */
    long readReply() throws IOException {
        return reply().rowCount();
    }

    private DirectReply reply() throws IOException {
        return DirectReply.read(readMessage(PT_REPLY), this::envChange);
    }

    private void envChange(int type, TdsReader body) throws DirectTdsException {
        switch (type) {
            case EnvChangeType.PACKET_SIZE -> packetSize = Integer.parseInt(body.readBVarchar().trim());
            case EnvChangeType.BEGIN_TRANSACTION -> {
                byte[] descriptor = body.readBytes(body.readUnsignedByte());
                if (descriptor.length != transaction.length) {
                    throw new DirectTdsException("transaction descriptor of " + descriptor.length + " bytes");
                }
                System.arraycopy(descriptor, 0, transaction, 0, transaction.length);
            }
            case EnvChangeType.COMMIT_TRANSACTION, EnvChangeType.ROLLBACK_TRANSACTION ->
                    java.util.Arrays.fill(transaction, (byte) 0);
            default -> {
                // database, language, collation, ... : nothing the bulk path depends on
            }
        }
    }

    // ---------------------------------------------------------------- packets

    private byte[] readPacket(int... types) throws IOException {
        byte[] header = in.readNBytes(8);
        if (header.length < 8) {
            throw new EOFException("the server closed the connection");
        }
        int type = header[0] & 0xFF;
        boolean ok = false;
        for (int t : types) {
            ok |= t == type;
        }
        if (!ok) {
            throw new DirectTdsException("unexpected packet type " + type);
        }
        int length = (header[2] & 0xFF) << 8 | (header[3] & 0xFF);
        if (length < 8) {
            throw new DirectTdsException("bad packet length " + length);
        }
        byte[] payload = in.readNBytes(length - 8);
        if (payload.length < length - 8) {
            throw new EOFException("the server closed the connection mid-packet");
        }
        lastStatus = header[1] & 0xFF;
        return payload;
    }

    private int lastStatus;

    private byte[] readMessage(int type) throws IOException {
        ByteArrayOutputStream msg = new ByteArrayOutputStream();
        do {
            msg.write(readPacket(type));
        } while ((lastStatus & 0x01) == 0);
        return msg.toByteArray();
    }

    /** The socket read timeout for replies from now on (0 = wait forever); a timeout breaks the connection. */
    public void readTimeoutMillis(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (java.net.SocketException e) {
            // a closed socket: the next request reports it
        }
    }

    /** True once closed (by {@link #close()} or because the socket is gone). */
    public boolean isClosed() {
        return socket.isClosed();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
