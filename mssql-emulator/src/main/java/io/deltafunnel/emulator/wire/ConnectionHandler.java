package io.deltafunnel.emulator.wire;

import io.deltafunnel.emulator.LoginRecord;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.emulator.exec.Session;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.IgnoredMessageException;
import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.MessageInput;
import io.deltafunnel.tds.MessageOutput;
import io.deltafunnel.tds.Packet;
import io.deltafunnel.tds.PacketReader;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PacketWriter;
import io.deltafunnel.tds.PreloginOptions;
import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TlsStreams;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLSocket;

/** One client connection: PRELOGIN, optional TLS, LOGIN7, then the request loop. Runs on its own thread. */
public final class ConnectionHandler implements Runnable {
    private volatile boolean jsonFeature;
    private volatile boolean vectorFeature;
    private static final Logger LOG = Logger.getLogger(ConnectionHandler.class.getName());
    static final int TDS_74 = Login7.TDS_7_4;
    private static final int DEFAULT_PACKET_SIZE = 4096;
    /** Read timeout until the login is done, so a silent or wrong-protocol client cannot pin a thread. */
    private static final int SETUP_TIMEOUT_MILLIS = 60_000;
    /** First byte of a TLS handshake record; a TDS packet never starts with it (0x16 is no packet type). */
    private static final int TLS_HANDSHAKE_RECORD = 0x16;

    private final MssqlEmulator emu;
    private final Socket socket;
    private final int spid;
    private final CountDownLatch finished = new CountDownLatch(1);
    private PacketReader reader;
    private PacketWriter writer;
    private boolean encrypted;
    private String tlsProtocol;
    private String alpn;
    private Map<Integer, String> preloginOptions = Map.of();
    private int fedAuthRequiredReply = -1;
    private volatile Session session;

    public ConnectionHandler(MssqlEmulator emu, Socket socket, int spid) {
        this.emu = emu;
        this.socket = socket;
        this.spid = spid;
    }

    public int spid() {
        return spid;
    }

    /** The logged-in session, null before LOGIN7 completes. */
    public Session session() {
        return session;
    }

    boolean encrypted() {
        return encrypted;
    }

    PacketWriter writer() {
        return writer;
    }

    @Override
    public void run() {
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(SETUP_TIMEOUT_MILLIS);
            InputStream rawIn;
            OutputStream rawOut;
            if (emu.strictEncryption()) {
                // TDS 8.0: TLS first, directly on the socket; PRELOGIN and LOGIN7 travel inside it
                SSLSocket ssl = TlsContext.strictHandshake(socket);
                rawIn = new BufferedInputStream(ssl.getInputStream(), 65536);
                rawOut = ssl.getOutputStream();
                tlsProtocol = ssl.getSession().getProtocol();
                alpn = ssl.getApplicationProtocol();
                encrypted = true;
                emu.sessionEncrypted();
            } else {
                rawIn = new BufferedInputStream(socket.getInputStream(), 65536);
                rawOut = socket.getOutputStream();
                rawIn.mark(1);
                int first = rawIn.read();
                rawIn.reset();
                if (first == TLS_HANDSHAKE_RECORD) {
                    // do not wait for a "packet" that never completes: drop the client now
                    throw new TdsProtocolException("the client opened with a TLS ClientHello (encrypt=strict, TDS 8.0) "
                            + "but this listener is TDS 7.x; start the emulator with strictEncryption(true)");
                }
            }
            reader = new PacketReader(rawIn);
            writer = new PacketWriter(new BufferedOutputStream(rawOut, 65536), DEFAULT_PACKET_SIZE);
            Packet p = new Packet();
            if (!reader.read(p)) {
                return;
            }
            if (p.type != PacketType.PRELOGIN) {
                throw new TdsProtocolException("expected PRELOGIN, got packet type " + p.type);
            }
            byte[] prelogin = readWholeMessage(p);
            Map<Integer, byte[]> options = PreloginOptions.parse(prelogin);
            preloginOptions = PreloginOptions.toHex(options);
            int clientEnc = PreloginOptions.byteOption(options, PreloginOptions.ENCRYPTION);
            // strict: TLS is already up, nothing more to negotiate (mssql-jdbc ignores this value in strict mode)
            int enc = emu.strictEncryption() ? PreloginOptions.ENCRYPT_NOT_SUP
                    : PreLogin.serverEncryption(clientEnc < 0 ? PreloginOptions.ENCRYPT_OFF : clientEnc);
            fedAuthRequiredReply = options.containsKey(PreloginOptions.FEDAUTHREQUIRED)
                    ? (emu.accessTokenValidator() != null ? 1 : 0) : -1;
            byte[] reply = PreLogin.response(enc, fedAuthRequiredReply);
            writer.writeMessage(PacketType.TABULAR_RESULT, reply, 0, reply.length);
            if (!emu.strictEncryption() && enc == PreloginOptions.ENCRYPT_ON) {
                TlsStreams tls = TlsHandshake.run(reader, writer, rawIn, rawOut);
                reader.setInput(tls.input());
                writer.setOutput(new BufferedOutputStream(tls.output(), 65536));
                tlsProtocol = "TLSv1.2";
                encrypted = true;
                emu.sessionEncrypted();
            }
            if (!login(p)) {
                return;
            }
            socket.setSoTimeout(0);
            requestLoop(p);
        } catch (IOException | UncheckedIOException e) {
            LOG.log(Level.FINE, "connection " + spid + " ended: " + e, e);
        } catch (TdsProtocolException e) {
            LOG.log(Level.WARNING, "connection " + spid + ": protocol error: " + e.getMessage(), e);
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "connection " + spid + ": H2 failure", e);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "connection " + spid + ": internal error", e);
        } finally {
            if (session != null) {
                session.close();
            }
            closeSocket();
            emu.connectionClosed(this);
            finished.countDown();
        }
    }

    private byte[] readWholeMessage(Packet first) throws IOException {
        MessageInput mi = new MessageInput(reader, first);
        TdsReader r = new TdsReader(mi);
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(first.payloadLength, 64));
        byte[] chunk = new byte[8192];
        while (!r.atEnd()) {
            int n = Math.min(chunk.length, r.available());
            r.readBytes(chunk, 0, n);
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    private boolean login(Packet p) throws IOException, SQLException {
        if (!reader.read(p)) {
            return false;
        }
        if (p.type != PacketType.LOGIN7) {
            throw new TdsProtocolException("expected LOGIN7, got packet type " + p.type);
        }
        Login7Request login = Login7Request.parse(readWholeMessage(p));
        boolean tokenLogin = login.fedAuthLibrary >= 0;
        boolean accepted = tokenLogin ? tokenAccepted(login) : !login.integratedSecurity
                && emu.user().equalsIgnoreCase(login.userName) && emu.password().equals(login.password);
        emu.recordLogin(LoginRecord.of(spid, emu.strictEncryption(), tlsProtocol, alpn, preloginOptions,
                fedAuthRequiredReply, login, accepted));
        login.password = "";
        login.accessToken = null;
        TdsWriter w = new TdsWriter(512);
        if (!accepted) {
            String who = tokenLogin ? "<token-identified principal>" : login.userName;
            TokenWriter.message(w, TokenType.ERROR, ErrorCatalog.LOGIN_FAILED.number(),
                    ErrorCatalog.LOGIN_FAILED.state(), ErrorCatalog.LOGIN_FAILED.severity(),
                    "Login failed for user '" + who + "'.",
                    Response.SERVER_NAME, "", 1);
            TokenWriter.done(w, TokenType.DONE, DoneStatus.ERROR, 0, 0);
            writer.writeMessage(PacketType.TABULAR_RESULT, w.array(), 0, w.size());
            return false;
        }
        int packetSize = login.packetSize == 0 ? DEFAULT_PACKET_SIZE
                : Math.max(512, Math.min(32767, login.packetSize));
        String db = login.database == null || login.database.isEmpty() ? MssqlEmulator.DATABASE : login.database;
        TokenWriter.envChangeString(w, EnvChangeType.DATABASE, db, MssqlEmulator.DATABASE);
        TokenWriter.message(w, TokenType.INFO, ErrorCatalog.DATABASE_CONTEXT_CHANGED.number(),
                ErrorCatalog.DATABASE_CONTEXT_CHANGED.state(), ErrorCatalog.DATABASE_CONTEXT_CHANGED.severity(),
                "Changed database context to '" + db + "'.",
                Response.SERVER_NAME, "", 1);
        TokenWriter.envChangeBytes(w, EnvChangeType.SQL_COLLATION, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS.bytes(),
                new byte[0]);
        TokenWriter.envChangeString(w, EnvChangeType.LANGUAGE, "us_english", "");
        TokenWriter.envChangeString(w, EnvChangeType.PACKET_SIZE, Integer.toString(packetSize),
                Integer.toString(DEFAULT_PACKET_SIZE));
        TokenWriter.loginAck(w, TDS_74, "Microsoft SQL Server", 16, 0, 1000);
        MssqlEmulator.Route route = emu.route();
        if (route != null) {
            // like an Azure SQL gateway: the client must reconnect there; no FEATUREEXTACK (mssql-jdbc rejects
            // acknowledgements on a routed login), and this connection ends after the answer
            TokenWriter.envChangeRouting(w, route.port(), route.host());
            TokenWriter.done(w, TokenType.DONE, DoneStatus.FINAL, 0, 0);
            writer.writeMessage(PacketType.TABULAR_RESULT, w.array(), 0, w.size());
            return false;
        }
        writeFeatureExtAck(w, login, tokenLogin);
        TokenWriter.done(w, TokenType.DONE, DoneStatus.FINAL, 0, 0);
        session = new Session(emu, this, db);
        writer.writeMessage(PacketType.TABULAR_RESULT, w.array(), 0, w.size());
        writer.setPacketSize(packetSize);
        return true;
    }

    /**
     * FEATUREEXTACK for the requested features the emulator acknowledges: FEDAUTH (token logins), JSONSUPPORT
     * (version 1) and VECTORSUPPORT (version 1: float32; float16 is not offered), each unless the emulator was
     * started without it. Nothing is acknowledged that was not requested (a client must treat that as a protocol
     * error).
     */
    private void writeFeatureExtAck(TdsWriter w, Login7Request login, boolean tokenLogin) {
        java.util.List<Integer> ids = new java.util.ArrayList<>();
        java.util.List<byte[]> data = new java.util.ArrayList<>();
        if (tokenLogin) {
            ids.add(Login7.FEATURE_FEDAUTH);
            data.add(new byte[0]);
        }
        if (login.jsonSupportVersion >= Login7.JSONSUPPORT_VERSION_1 && emu.jsonSupport()) {
            ids.add(Login7.FEATURE_JSONSUPPORT);
            data.add(new byte[] {(byte) Login7.JSONSUPPORT_VERSION_1});
            jsonFeature = true;
        }
        if (login.vectorSupportVersion >= Login7.VECTORSUPPORT_VERSION_1 && emu.vectorSupport()) {
            ids.add(Login7.FEATURE_VECTORSUPPORT);
            data.add(new byte[] {(byte) Login7.VECTORSUPPORT_VERSION_1});
            vectorFeature = true;
        }
        if (!ids.isEmpty()) {
            int[] idArray = ids.stream().mapToInt(Integer::intValue).toArray();
            TokenWriter.featureExtAck(w, idArray, data.toArray(new byte[0][]));
        }
    }

    /** Whether this connection's login negotiated JSONSUPPORT: json columns travel as json (0xF4). */
    public boolean jsonFeature() {
        return jsonFeature;
    }

    /** Whether this connection's login negotiated VECTORSUPPORT: vector columns travel as vector (0xF5). */
    public boolean vectorFeature() {
        return vectorFeature;
    }

    /**
     * A FEDAUTH login is accepted when a validator is configured, the library is SECURITYTOKEN, the echo bit matches
     * our PRELOGIN FEDAUTHREQUIRED answer, no SQL credentials were sent along, and the validator accepts the token.
     */
    private boolean tokenAccepted(Login7Request login) {
        java.util.function.Predicate<String> validator = emu.accessTokenValidator();
        if (validator == null || login.fedAuthLibrary != Login7.FEDAUTH_LIBRARY_SECURITYTOKEN
                || login.accessToken == null || login.fedAuthEcho != (fedAuthRequiredReply == 1)
                || !login.userName.isEmpty() || !login.password.isEmpty()) {
            return false;
        }
        try {
            return validator.test(login.accessToken);
        } catch (RuntimeException e) {
            // the message of a validator failure could quote the token: log only the type
            LOG.warning("connection " + spid + ": access token validator failed with " + e.getClass().getName());
            return false;
        }
    }

    private void requestLoop(Packet p) throws IOException, SQLException {
        while (!emu.isClosed()) {
            Packet next = p;
            if (!reader.read(p)) {
                return;
            }
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine("connection " + spid + ": request packet type " + next.type + " status " + next.status);
            }
            switch (next.type) {
                case PacketType.SQL_BATCH:
                case PacketType.RPC:
                case PacketType.TRANSACTION_MANAGER: {
                    int type = next.type;
                    boolean reset = next.isResetConnection();
                    byte[] msg;
                    try {
                        msg = readWholeMessage(next);
                    } catch (IgnoredMessageException e) {
                        answerIgnored();
                        continue;
                    }
                    if (reset) {
                        session.resetConnection();
                    }
                    Response r = newResponse();
                    session.handle(type, msg, r);
                    break;
                }
                case PacketType.BULK_LOAD: {
                    MessageInput mi = new MessageInput(reader, next);
                    Response r = newResponse();
                    try {
                        session.handleBulkLoad(mi, r);
                    } catch (IgnoredMessageException e) {
                        session.abandonBulkLoad();
                        answerIgnored();
                    }
                    break;
                }
                case PacketType.ATTENTION:
                    // the request it cancels was already answered in full
                    newResponse().ackAttention();
                    break;
                default:
                    throw new TdsProtocolException("unexpected packet type " + next.type);
            }
        }
    }

    private Response newResponse() {
        return new Response(new MessageOutput(writer, PacketType.TABULAR_RESULT));
    }

    private void answerIgnored() throws IOException {
        LOG.fine(() -> "connection " + spid + ": client abandoned its message (ignore bit)");
        newResponse().finish(DoneStatus.FINAL);
    }

    /**
     * Checks, without blocking, whether the client sent an ATTENTION. A non-attention packet found this way is a
     * protocol error (the client must wait for our answer).
     */
    public boolean attentionArrived() throws IOException {
        if (reader.input().available() <= 0) {
            return false;
        }
        Packet p = new Packet();
        if (!reader.read(p)) {
            throw new java.io.EOFException("client closed the connection");
        }
        LOG.fine(() -> "connection " + spid + ": packet type " + p.type + " while a request was running");
        if (p.type != PacketType.ATTENTION) {
            throw new TdsProtocolException("packet type " + p.type + " received while a request was running");
        }
        return true;
    }

    /** Closes the socket abruptly (RST) — fault injection and emulator shutdown. */
    public void abort() {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            LOG.log(Level.FINE, "set SO_LINGER before abort", e);
        }
        closeSocket();
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing socket of connection " + spid, e);
        }
    }

    public void awaitTermination(long millis) {
        try {
            finished.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
