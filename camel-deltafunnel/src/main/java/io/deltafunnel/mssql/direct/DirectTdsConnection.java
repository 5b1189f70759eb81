package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PreloginTls;
import io.deltafunnel.tds.PreloginOptions;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TdsWriter;
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
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A minimal TDS client connection of its own (no mssql-jdbc): connection setup, SQL_BATCH and BULK_LOAD messages.
 * Server ERROR tokens become {@link DirectTdsException}s; replies (row counts, the first result set, ENVCHANGEs
 * such as transaction descriptors) are read by {@link DirectReply}. Parameterised statements go through
 * {@code sp_executesql} ({@link #execute(String, Object...)}).
 *
 * <ul>
 * <li><b>Authentication</b>: SQL authentication (user + password, LOGIN7 with the obfuscated password) or an Entra
 * ID access token ({@link DirectOptions#accessToken(Supplier)}: PRELOGIN FEDAUTHREQUIRED, LOGIN7 FEDAUTH feature with the
 * SECURITYTOKEN library, MS-TDS 2.2.6.4). Integrated security / Kerberos / NTLM are not supported.</li>
 * <li><b>Encryption</b> ({@link Encryption}): {@code MANDATORY} (default, TDS 7.4: PRELOGIN, then a TLS 1.2
 * handshake wrapped in PRELOGIN packets, then raw TLS for the whole session), {@code STRICT} (TDS 8.0: TLS 1.2/1.3
 * handshake first with ALPN "tds/8.0", PRELOGIN and LOGIN7 inside TLS, the certificate always validated) or
 * {@code OFF} (no TLS at all; the server must agree). Login-only encryption is not supported.</li>
 * <li><b>Certificates</b>: validated against the JDK's default trust store or {@link DirectOptions#trustStore}, with the
 * host name (or {@link DirectOptions#hostNameInCertificate}) checked by the HTTPS rules, unless
 * {@link DirectOptions#trustServerCertificate(boolean)} (not allowed with {@code STRICT}).</li>
 * <li><b>Routing</b>: a routing ENVCHANGE (type 20) in the login answer makes the client reconnect once to the named
 * host and port with the same options and log in again (the certificate then has to name the new host); a second
 * redirect, or any redirect with {@link DirectOptions#followRouting(boolean) followRouting(false)}, is a
 * {@link DirectRoutingException}.</li>
 * </ul>
 *
 * <p>Secrets (password, access token, trust store password) are never logged nor put into exception messages or
 * {@code toString()}. The connection owns its socket (and TLS streams); {@link #close()} releases them.
 *
 * <p>Used by the producer with {@code bulkEncoder=direct} (experimental). Not thread-safe.
 *
 * <p>What lives elsewhere: the settings in {@link DirectOptions}, the trust set-up and the TLS failure reasons in
 * {@link DirectTls}, the TLS 7.x handshake itself in tds-codec's {@link PreloginTls}, the LOGIN7 message in
 * {@link Login7Builder}, the {@code sp_executesql} RPC body in {@link RpcRequestBuilder}, the token stream of a reply in
 * {@link DirectReply}. What stays here is the connection's state, which the steps share and change as they go (the
 * socket and its streams as TLS comes up, the phase for timeout messages, the negotiated packet size, the transaction
 * descriptor, the routing target and the FEDAUTH echo/acknowledgement).
 */
public final class DirectTdsConnection implements AutoCloseable {

    /** How the session is encrypted. */
    public enum Encryption {
        /** No TLS at all (PRELOGIN ENCRYPT_NOT_SUP); fails if the server requires encryption. */
        OFF,
        /** TDS 7.4: TLS negotiated in PRELOGIN, on for the whole session; fails if the server cannot do TLS. */
        MANDATORY,
        /** TDS 8.0: TLS first (ALPN "tds/8.0"), certificate always validated. */
        STRICT
    }

    /** New connection settings, the defaults set. */
    public static DirectOptions options() {
        return new DirectOptions();
    }

    /** The size of the output stream's buffer (and the least a BULK_LOAD writer hands it at a time). */
    private static final int STREAM_BUFFER = 65536;

    private final Socket socket;
    /** The open transaction's descriptor from the server's ENVCHANGE; zeros outside a transaction. */
    private final byte[] transaction = new byte[8];
    private final String host;
    private final int port;
    private InputStream in;
    private OutputStream out;
    private int packetSize = 4096;
    private boolean encrypted;
    private String tlsProtocol;
    private String phase = "TCP connect";
    private boolean fedAuthEcho;
    private boolean fedAuthAcked;
    private boolean jsonAcked;
    private boolean vectorAcked;
    /** Set by {@link #readReply()} when the login answer carries a routing ENVCHANGE. */
    private Route routing;

    private record Route(String host, int port) {
    }

    private DirectTdsConnection(Socket socket, String host, int port) {
        this.socket = socket;
        this.host = host;
        this.port = port;
    }

    /**
     * Connects, negotiates encryption and logs in, following at most one routing redirect. The returned connection
     * belongs to the caller, who must {@link #close()} it.
     *
     * @throws DirectTlsException TLS could not be set up (handshake, untrusted certificate, host name mismatch)
     * @throws DirectRoutingException a redirect was not followed
     * @throws DirectTdsException the server refused the login (e.g. number 18456) or broke the protocol, or did not
     *         answer within {@link DirectOptions#loginTimeoutMillis(int)}
     * @throws IllegalArgumentException contradictory options
     */
    public static DirectTdsConnection open(DirectOptions o) throws IOException {
        o.validate();
        SSLContext ssl = o.encryption == Encryption.OFF ? null : DirectTls.sslContext(o);
        String certHost = o.hostNameInCertificate != null ? o.hostNameInCertificate : o.host;
        DirectTdsConnection c = connect(o, ssl, o.host, o.port, certHost);
        Route r = c.routing;
        if (r == null) {
            return c;
        }
        c.close();
        if (!o.followRouting) {
            throw new DirectRoutingException("the server " + o.host + ":" + o.port + " routed the login to "
                    + r.host() + ":" + r.port() + " and followRouting is false", r.host(), r.port());
        }
        DirectTdsConnection routed = connect(o, ssl, r.host(), r.port(), r.host());
        Route again = routed.routing;
        if (again != null) {
            routed.close();
            throw new DirectRoutingException("the routed server " + r.host() + ":" + r.port() + " routed the login "
                    + "again, to " + again.host() + ":" + again.port() + "; only one redirect is followed",
                    again.host(), again.port());
        }
        return routed;
    }

    private static DirectTdsConnection connect(DirectOptions o, SSLContext ssl, String host, int port, String certHost)
            throws IOException {
        Socket socket = new Socket();
        DirectTdsConnection c = new DirectTdsConnection(socket, host, port);
        try {
            socket.connect(new InetSocketAddress(host, port), o.connectTimeoutMillis);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(o.loginTimeoutMillis);
            c.in = new BufferedInputStream(socket.getInputStream(), 65536);
            c.out = new BufferedOutputStream(socket.getOutputStream(), STREAM_BUFFER);
            if (o.encryption == Encryption.STRICT) {
                c.startStrictTls(ssl, certHost);
            }
            c.prelogin(o, ssl, certHost);
            c.login(o, host);
            socket.setSoTimeout(0);
            return c;
        } catch (SocketTimeoutException e) {
            c.close();
            throw new DirectTdsException("no answer from " + host + ":" + port + " within " + o.loginTimeoutMillis
                    + " ms during " + c.phase, e);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The negotiated packet size. */
    /** Whether the login's FEATUREEXTACK acknowledged JSONSUPPORT (SQL Server 2025's json type). */
    public boolean jsonSupported() {
        return jsonAcked;
    }

    /** Whether the login's FEATUREEXTACK acknowledged VECTORSUPPORT: the vector type may be sent. */
    public boolean vectorSupported() {
        return vectorAcked;
    }

    public int packetSize() {
        return packetSize;
    }

    /** Whether the session runs over TLS. */
    public boolean encrypted() {
        return encrypted;
    }

    /** The negotiated TLS protocol ("TLSv1.2", "TLSv1.3"), null for a plain session. */
    public String tlsProtocol() {
        return tlsProtocol;
    }

    /** The host this connection is logged in to (the routed host after a redirect). */
    public String host() {
        return host;
    }

    /** The port this connection is logged in to (the routed port after a redirect). */
    public int port() {
        return port;
    }

    // ---------------------------------------------------------------- TLS set-up

    /** TDS 8.0: TLS handshake directly on the socket, ALPN "tds/8.0", TLS 1.3 or 1.2. */
    private void startStrictTls(SSLContext ctx, String certHost) throws IOException {
        phase = "TLS handshake (strict)";
        SSLSocket ssl = (SSLSocket) ctx.getSocketFactory().createSocket(socket, certHost, port, true);
        ssl.setUseClientMode(true);
        SSLParameters p = ssl.getSSLParameters();
        p.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        p.setApplicationProtocols(new String[] {PreloginOptions.ALPN_TDS_8_0});
        p.setEndpointIdentificationAlgorithm("HTTPS");
        ssl.setSSLParameters(p);
        try {
            ssl.startHandshake();
        } catch (SSLException e) {
            throw DirectTls.failure(e, host, port, true);
        } catch (SocketTimeoutException e) {
            throw new DirectTlsException(DirectTlsException.Reason.HANDSHAKE, host, port, "no TLS answer within the "
                    + "login timeout (encryption STRICT needs a TDS 8.0 server that expects TLS first)", e);
        }
        String alpn = ssl.getApplicationProtocol();
        // like mssql-jdbc: no ALPN answer is tolerated, a different protocol is not
        if (alpn != null && !alpn.isEmpty() && !PreloginOptions.ALPN_TDS_8_0.equals(alpn)) {
            throw new DirectTlsException(DirectTlsException.Reason.ALPN, host, port,
                    "the server negotiated application protocol '" + alpn + "' instead of "
                            + PreloginOptions.ALPN_TDS_8_0, null);
        }
        in = new BufferedInputStream(ssl.getInputStream(), 65536);
        out = new BufferedOutputStream(ssl.getOutputStream(), STREAM_BUFFER);
        tlsProtocol = ssl.getSession().getProtocol();
        encrypted = true;
    }

    // ---------------------------------------------------------------- PRELOGIN

    private void prelogin(DirectOptions o, SSLContext ssl, String certHost) throws IOException {
        phase = "PRELOGIN";
        // mssql-jdbc sends ENCRYPT_NOT_SUP in strict mode too: TLS is already up, nothing more to negotiate
        int encryption = o.encryption == Encryption.MANDATORY ? PreloginOptions.ENCRYPT_ON
                : PreloginOptions.ENCRYPT_NOT_SUP;
        // the option set mssql-jdbc sends (minus its TRACEID): no INSTOPT (default instance), THREADID or MARS (off)
        Map<Integer, byte[]> options = new LinkedHashMap<>();
        options.put(PreloginOptions.VERSION, new byte[] {0, 1, 0, 0, 0, 0}); // 0.1.0, sub-build 0
        options.put(PreloginOptions.ENCRYPTION, new byte[] {(byte) encryption});
        if (o.accessToken != null) {
            options.put(PreloginOptions.FEDAUTHREQUIRED, new byte[] {1});
        }
        byte[] request = PreloginOptions.build(options);
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.PRELOGIN, 4096);
        w.writeBytes(request);
        w.end();
        Map<Integer, byte[]> reply;
        try {
            reply = PreloginOptions.parse(readMessage(PacketType.TABULAR_RESULT));
        } catch (io.deltafunnel.tds.TdsProtocolException e) {
            throw new DirectTdsException("malformed PRELOGIN reply from " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
        int serverEncryption = PreloginOptions.byteOption(reply, PreloginOptions.ENCRYPTION);
        if (serverEncryption < 0) {
            throw new DirectTdsException("PRELOGIN reply without ENCRYPTION option");
        }
        fedAuthEcho = PreloginOptions.byteOption(reply, PreloginOptions.FEDAUTHREQUIRED) == 1;
        if (o.encryption == Encryption.STRICT) {
            return; // the value is meaningless once TLS is up (mssql-jdbc ignores it too)
        }
        boolean serverWantsTls = serverEncryption == PreloginOptions.ENCRYPT_ON
                || serverEncryption == PreloginOptions.ENCRYPT_REQ;
        if (o.encryption == Encryption.MANDATORY && !serverWantsTls) {
            throw new DirectTdsException("encryption requested but the server " + host + ":" + port
                    + " does not support it (PRELOGIN ENCRYPTION=" + serverEncryption + ")");
        }
        if (o.encryption == Encryption.OFF && serverEncryption == PreloginOptions.ENCRYPT_REQ) {
            throw new DirectTdsException("the server requires encryption; connect with encrypt=true");
        }
        if (o.encryption == Encryption.OFF && serverEncryption == PreloginOptions.ENCRYPT_OFF) {
            throw new DirectTdsException("the server wants login-only encryption, which is not supported; "
                    + "connect with encrypt=true");
        }
        if (serverWantsTls) {
            startTls(o, ssl, certHost);
        }
    }

    /** TDS 7.x: TLS 1.2 handshake records wrapped in PRELOGIN packets, then raw TLS. */
    private void startTls(DirectOptions o, SSLContext ctx, String certHost) throws IOException {
        phase = "TLS handshake (in PRELOGIN)";
        SSLEngine engine = ctx.createSSLEngine(certHost, port);
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        if (!o.trustServerCertificate) {
            SSLParameters p = engine.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(p);
        }
        try {
            handshakeInPrelogin(engine);
        } catch (SSLException e) {
            throw DirectTls.failure(e, host, port, false);
        }
        tlsProtocol = engine.getSession().getProtocol();
    }

    private void handshakeInPrelogin(SSLEngine engine) throws IOException {
        PreloginTls.Carrier carrier = new PreloginTls.Carrier() {
            @Override
            public void send(byte[] records, int len) throws IOException {
                TdsMessageWriter w = new TdsMessageWriter(out, PacketType.PRELOGIN, 4096);
                w.writeBytes(records, 0, len);
                w.end();
            }

            @Override
            public byte[] receive() throws IOException {
                return readPacket(PacketType.TABULAR_RESULT, PacketType.PRELOGIN);
            }
        };
        TlsStreams tls = PreloginTls.handshake(engine, carrier, in, out);
        in = new BufferedInputStream(tls.input(), 65536);
        out = new BufferedOutputStream(tls.output(), STREAM_BUFFER);
        encrypted = true;
    }

    // ---------------------------------------------------------------- LOGIN7

    /**
     * Sends LOGIN7 with the flags mssql-jdbc uses (checked field by field by LoginEquivalenceTest) and reads the
     * answer; {@code serverName} is the host being logged in to (the routed one after a redirect).
     */
    private void login(DirectOptions o, String serverName) throws IOException {
        phase = "LOGIN7";
        byte[] token = null;
        if (o.accessToken != null) {
            String t = o.accessToken.get();
            if (t == null || t.isEmpty()) {
                throw new DirectTdsException("the access token supplier returned no token");
            }
            token = t.getBytes(StandardCharsets.UTF_16LE);
        }
        byte[] message = Login7Builder.build(o, serverName, token, fedAuthEcho);
        try {
            TdsMessageWriter w = new TdsMessageWriter(out, PacketType.LOGIN7, 4096);
            w.writeBytes(message);
            w.end();
        } finally {
            Arrays.fill(message, (byte) 0);
            if (token != null) {
                Arrays.fill(token, (byte) 0);
            }
        }
        readReply();
        if (token != null && routing == null && !fedAuthAcked) {
            throw new DirectTdsException("the server accepted the login without acknowledging the FEDAUTH feature");
        }
    }

    // ---------------------------------------------------------------- requests

    /** Runs a SQL batch; returns the affected row count (DONE counts summed). */
    public long executeBatch(String sql) throws IOException {
        return executeBatchReply(sql).rowCount();
    }

    /** Runs a SQL batch; returns the whole reply (first result set and row count). */
    public DirectReply executeBatchReply(String sql) throws IOException {
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.SQL_BATCH, packetSize);
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
        TdsWriter body = RpcRequestBuilder.executeSql(sql, params);
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.RPC, packetSize);
        allHeaders(w);
        w.writeBytes(body.array(), 0, body.size());
        w.end();
        return reply();
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

    /**
     * Starts a BULK_LOAD message; the caller writes COLMETADATA, ROW tokens and DONE, then calls {@code end()}. The
     * writer hands the stream at least {@value #STREAM_BUFFER} bytes of whole packets at a time, so that the stream's
     * buffer passes them on without copying them.
     */
    TdsMessageWriter beginBulkLoad() {
        int packets = (STREAM_BUFFER + packetSize - 1) / packetSize;
        return new TdsMessageWriter(out, PacketType.BULK_LOAD, packetSize, packets);
    }

    /** Reads a reply message; throws the first ERROR token's {@link DirectTdsException}; returns the row count. */
    long readReply() throws IOException {
        return reply().rowCount();
    }

    private DirectReply reply() throws IOException {
        return DirectReply.read(readMessage(PacketType.TABULAR_RESULT), this::envChange,
                id -> {
                    fedAuthAcked |= id == Login7.FEATURE_FEDAUTH;
                    jsonAcked |= id == Login7.FEATURE_JSONSUPPORT;
                    vectorAcked |= id == Login7.FEATURE_VECTORSUPPORT;
                });
    }

    /** ENVCHANGE 20 value: USHORT length, BYTE protocol (0 = TCP), USHORT port, US_VARCHAR server. */
    private static Route parseRouting(TdsReader r) throws DirectTdsException {
        int valueLength = r.readUnsignedShort();
        int protocol = r.readUnsignedByte();
        int routedPort = r.readUnsignedShort();
        String server = r.readUsVarchar();
        if (valueLength < 5 || protocol != 0 || routedPort == 0 || server.isEmpty()) {
            throw new DirectTdsException("invalid routing ENVCHANGE (protocol " + protocol + ", port " + routedPort
                    + ", server '" + server + "')");
        }
        return new Route(server, routedPort);
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
                    Arrays.fill(transaction, (byte) 0);
            case EnvChangeType.ROUTING -> routing = parseRouting(body);
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
