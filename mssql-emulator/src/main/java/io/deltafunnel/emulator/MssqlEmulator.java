package io.deltafunnel.emulator;

import io.deltafunnel.emulator.wire.TlsContext;

import io.deltafunnel.emulator.h2.EmulatorDatabase;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.testing.Faults;
import io.deltafunnel.emulator.wire.ConnectionHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An embedded TDS endpoint that speaks MS-TDS to mssql-jdbc, backed by an in-memory H2 database. A test/demo
 * endpoint, not a database product. Start with {@link #builder()}; one thread per client connection.
 */
public final class MssqlEmulator implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(MssqlEmulator.class.getName());
    public static final String DATABASE = "master";

    private final String user;
    private final String password;
    private final boolean sinkMode;
    private final Catalog catalog;
    private final EmulatorDatabase database;
    private final Faults faults = new Faults();
    private final LockManager locks = new LockManager();
    private final ServerSocket listener;
    private final Thread acceptor;
    private final Set<ConnectionHandler> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong bulkRowsDecoded = new AtomicLong();
    private final AtomicInteger nextSpid = new AtomicInteger(51);
    private final AtomicInteger encryptedSessions = new AtomicInteger();
    private final boolean strictEncryption;
    private final Predicate<String> accessTokenValidator;
    private final Route route;
    private final List<LoginRecord> loginRecords = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** {@link Builder#rollbackDelayPerRow}, in nanoseconds. */
    private final long rollbackNanosPerRow;
    /** Rollbacks of lost sessions' transactions begun since start; the monitor of the simulated rollback time. */
    private final Object rollbacks = new Object();
    private long rollbacksBegun;
    private int rollbacksNow;
    /** The database's READ_COMMITTED_SNAPSHOT option (builder, ALTER DATABASE ... SET READ_COMMITTED_SNAPSHOT). */
    private volatile boolean readCommittedSnapshot;
    private final boolean jsonSupport;
    private final boolean vectorSupport;
    private volatile boolean captureBulkLoads;
    private final java.util.List<CapturedBulkLoad> capturedBulkLoads =
            java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    /**
     * The payload of one BULK_LOAD message (COLMETADATA, ROW tokens, DONE; no packet headers) as received, and the
     * table of its INSERT BULK (null when there was none).
     */
    public record CapturedBulkLoad(String table, byte[] payload) {
    }

    /** A routing target. */
    public record Route(String host, int port) {
    }

    /** Builder for {@link MssqlEmulator}. */
    public static final class Builder {
        private int port;
        private String user = "sa";
        private String password = "Str0ng!Passw0rd";
        private boolean sinkMode;
        private InetAddress bindAddress;
        private boolean strictEncryption;
        private Predicate<String> accessTokenValidator;
        private Route route;
        private long rollbackNanosPerRow;
        private boolean readCommittedSnapshot;
        private boolean jsonSupport = true;
        private boolean vectorSupport = true;

        private Builder() {
        }

        /**
         * false: the LOGIN7 JSONSUPPORT feature request is not acknowledged (no FEATUREEXTACK entry), so json columns
         * reach every client as nvarchar(max), like a server that does not announce the feature. Default true.
         */
        public Builder jsonSupport(boolean announce) {
            this.jsonSupport = announce;
            return this;
        }

        /**
         * false: the LOGIN7 VECTORSUPPORT feature request is not acknowledged, so vector columns reach every client
         * as their JSON text in varchar(max) and a client cannot send the vector type. Default true.
         */
        public Builder vectorSupport(boolean announce) {
            this.vectorSupport = announce;
            return this;
        }

        /**
         * true: TDS 8.0 "strict" listener. Every connection must start with a TLS 1.2/1.3 ClientHello (ALPN
         * "tds/8.0"); PRELOGIN and LOGIN7 then travel inside TLS. Clients that send a plain PRELOGIN are dropped.
         * Default false (TDS 7.x: PRELOGIN first, TLS negotiated inside it).
         */
        public Builder strictEncryption(boolean strict) {
            this.strictEncryption = strict;
            return this;
        }

        /**
         * Accept FEDAUTH (Entra ID access token, SECURITYTOKEN library) logins whose token passes
         * {@code validator}; others fail with error 18456. The validator is called on the connection's thread and
         * must not log the token. Without a validator (default), every token login is refused.
         */
        public Builder accessTokenValidator(Predicate<String> validator) {
            this.accessTokenValidator = validator;
            return this;
        }

        /**
         * Answer every successful login with a routing ENVCHANGE (type 20) to {@code host:port}, like an Azure SQL
         * gateway, and end the connection after that answer.
         */
        public Builder routeTo(String host, int port) {
            this.route = new Route(Objects.requireNonNull(host, "host"), port);
            return this;
        }

        /** TCP port; 0 (default) picks an ephemeral one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder user(String user) {
            this.user = user;
            return this;
        }

        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /** true: bulk rows are decoded and checked fully but not stored. */
        public Builder sinkMode(boolean sinkMode) {
            this.sinkMode = sinkMode;
            return this;
        }

        /**
         * true: the database starts with READ_COMMITTED_SNAPSHOT ON (Azure SQL Database's default): READ COMMITTED
         * readers take no shared locks and read the last committed version. Default false (an on-premises
         * database's default). {@code ALTER DATABASE ... SET READ_COMMITTED_SNAPSHOT ON|OFF} changes it later.
         */
        public Builder readCommittedSnapshot(boolean on) {
            this.readCommittedSnapshot = on;
            return this;
        }

        /** Address to bind (default: loopback). */
        /**
         * Models SQL Server's rollback of a lost session's open transaction as taking {@code perRow} for each row
         * the transaction wrote (INSERT/UPDATE/DELETE/MERGE counts and bulk rows): until that time has passed,
         * the session's table locks, its application locks and its bulk load's BU lock stay held, as on SQL
         * Server, where a killed session keeps its locks until its rollback has finished. Default zero (released at
         * once). A test option, so that kill-and-re-run tests meet a rollback still in progress; {@link #close()}
         * cuts it short.
         */
        public Builder rollbackDelayPerRow(java.time.Duration perRow) {
            if (perRow.isNegative()) {
                throw new IllegalArgumentException("rollbackDelayPerRow must not be negative: " + perRow);
            }
            this.rollbackNanosPerRow = perRow.toNanos();
            return this;
        }

        public Builder bindAddress(InetAddress address) {
            this.bindAddress = address;
            return this;
        }

        public MssqlEmulator start() {
            try {
                return new MssqlEmulator(this);
            } catch (IOException | SQLException e) {
                throw new IllegalStateException("cannot start mssql-emulator: " + e.getMessage(), e);
            }
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    private MssqlEmulator(Builder b) throws IOException, SQLException {
        this.user = b.user;
        this.password = b.password;
        this.sinkMode = b.sinkMode;
        this.strictEncryption = b.strictEncryption;
        this.accessTokenValidator = b.accessTokenValidator;
        this.route = b.route;
        this.rollbackNanosPerRow = b.rollbackNanosPerRow;
        this.readCommittedSnapshot = b.readCommittedSnapshot;
        this.jsonSupport = b.jsonSupport;
        this.vectorSupport = b.vectorSupport;
        this.catalog = new Catalog(DATABASE);
        this.database = new EmulatorDatabase(catalog);
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            InetAddress addr = b.bindAddress != null ? b.bindAddress : InetAddress.getLoopbackAddress();
            s.bind(new InetSocketAddress(addr, b.port), 50);
        } catch (IOException e) {
            s.close();
            database.close();
            throw e;
        }
        this.listener = s;
        this.acceptor = new Thread(this::acceptLoop, "mssql-emulator-accept-" + s.getLocalPort());
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    private void acceptLoop() {
        // the TLS context (keystore, key manager, SSLContext: a few hundred ms in a fresh JVM) is loaded here, while the
        // client is still starting, rather than in the first connection's handshake
        TlsContext.preload();
        while (!closed) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "accept failed", e);
                }
                return;
            }
            ConnectionHandler h = new ConnectionHandler(this, socket, nextSpid.getAndIncrement());
            connections.add(h);
            Thread t = new Thread(h, "mssql-emulator-conn-" + h.spid());
            t.setDaemon(true);
            t.start();
        }
    }

    public void connectionClosed(ConnectionHandler h) {
        connections.remove(h);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /**
     * JDBC URL without credentials: use {@link #user()} and {@link #password()}. In strict mode the URL says
     * {@code encrypt=strict;hostNameInCertificate=localhost}; mssql-jdbc ignores {@code trustServerCertificate} in
     * strict mode, so add a {@code trustStore} holding {@link #tlsCertificate()} (see {@link #writeTrustStore}).
     */
    public String jdbcUrl() {
        return "jdbc:sqlserver://localhost:" + port() + ";databaseName=" + DATABASE
                + (strictEncryption ? ";encrypt=strict;hostNameInCertificate=localhost"
                        : ";encrypt=true;trustServerCertificate=true");
    }

    /** Whether this listener expects TLS first (TDS 8.0 strict). */
    public boolean strictEncryption() {
        return strictEncryption;
    }

    /**
     * The decoded PRELOGIN/LOGIN7 of every connection that reached LOGIN7, oldest first (a snapshot). Holds no
     * password and no token.
     */
    public List<LoginRecord> loginRecords() {
        return List.copyOf(loginRecords);
    }

    /** The emulator's self-signed TLS certificate (CN=localhost, SAN dns:localhost, ip:127.0.0.1). */
    public static X509Certificate tlsCertificate() {
        return TlsContext.certificate();
    }

    /**
     * Writes a PKCS12 trust store holding only {@link #tlsCertificate()} (alias "mssql-emulator") to {@code file}.
     * The caller owns the file.
     */
    public static void writeTrustStore(Path file, char[] password) throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setCertificateEntry("mssql-emulator", tlsCertificate());
            try (OutputStream out = Files.newOutputStream(file)) {
                ks.store(out, password);
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot write trust store " + file + ": " + e.getMessage(), e);
        }
    }

    public Predicate<String> accessTokenValidator() {
        return accessTokenValidator;
    }

    public Route route() {
        return route;
    }

    public void recordLogin(LoginRecord r) {
        loginRecords.add(r);
    }

    /** Whether a JSONSUPPORT feature request is acknowledged ({@link Builder#jsonSupport}). */
    public boolean jsonSupport() {
        return jsonSupport;
    }

    /** Whether a VECTORSUPPORT feature request is acknowledged ({@link Builder#vectorSupport}). */
    public boolean vectorSupport() {
        return vectorSupport;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public boolean sinkMode() {
        return sinkMode;
    }

    /** Whether the database's READ_COMMITTED_SNAPSHOT option is on now. */
    public boolean readCommittedSnapshot() {
        return readCommittedSnapshot;
    }

    public void readCommittedSnapshot(boolean on) {
        this.readCommittedSnapshot = on;
    }

    /** The open connections with a logged-in session other than {@code self}. */
    public List<ConnectionHandler> otherSessions(ConnectionHandler self) {
        List<ConnectionHandler> out = new java.util.ArrayList<>();
        for (ConnectionHandler h : connections) {
            if (h != self && h.session() != null) {
                out.add(h);
            }
        }
        return out;
    }

    public Faults faults() {
        return faults;
    }

    /** Rows decoded from BULK_LOAD messages since start (stored or not). */
    public long bulkRowsDecoded() {
        return bulkRowsDecoded.get();
    }

    /**
     * Starts or stops recording BULK_LOAD payloads (a test aid for comparing the byte streams of two clients);
     * off by default. Stopping keeps what was recorded.
     */
    public void captureBulkLoads(boolean on) {
        captureBulkLoads = on;
    }

    /** The BULK_LOAD payloads recorded so far, oldest first; {@link #clearCapturedBulkLoads()} forgets them. */
    public java.util.List<CapturedBulkLoad> capturedBulkLoads() {
        synchronized (capturedBulkLoads) {
            return java.util.List.copyOf(capturedBulkLoads);
        }
    }

    public void clearCapturedBulkLoads() {
        capturedBulkLoads.clear();
    }

    public boolean capturingBulkLoads() {
        return captureBulkLoads;
    }

    public void bulkLoadCaptured(String table, byte[] payload) {
        capturedBulkLoads.add(new CapturedBulkLoad(table, payload));
    }

    /** Number of sessions that completed a TLS handshake since start. */
    public int encryptedSessions() {
        return encryptedSessions.get();
    }

    /**
     * How many rollbacks of a lost session's open transaction have begun since start (see
     * {@link Builder#rollbackDelayPerRow} and {@link Faults#stallDisconnectRollback}); a test waits for it to know
     * that the emulator has noticed a disconnect.
     */
    public long disconnectRollbacksBegun() {
        synchronized (rollbacks) {
            return rollbacksBegun;
        }
    }

    /** How many lost sessions are rolling back right now (their locks still held). */
    public int disconnectRollbacksNow() {
        synchronized (rollbacks) {
            return rollbacksNow;
        }
    }

    /** The rollback delay per row ({@link Builder#rollbackDelayPerRow}). */
    public java.time.Duration rollbackDelayPerRow() {
        return java.time.Duration.ofNanos(rollbackNanosPerRow);
    }

    /**
     * The rollback of a lost session's transaction that wrote {@code rows} rows: takes {@code rows} times the
     * configured delay, and is held further while a {@link Faults#stallDisconnectRollback} armed for it is not
     * released. Runs in the session's thread before its locks are released; {@link #close()} ends it.
     */
    public void disconnectRollback(int spid, long rows) {
        boolean stalled = faults.startDisconnectRollback();
        long nanos = rows <= 0 || rollbackNanosPerRow == 0 ? 0
                : rows > Long.MAX_VALUE / rollbackNanosPerRow ? Long.MAX_VALUE : rows * rollbackNanosPerRow;
        synchronized (rollbacks) {
            rollbacksBegun++;
            rollbacksNow++;
            rollbacks.notifyAll();
        }
        try {
            if (nanos > 0) {
                LOG.fine(() -> "connection " + spid + " lost with an open transaction of " + rows + " rows: rolling"
                        + " back for " + java.time.Duration.ofNanos(nanos) + ", its locks held until then");
                long deadline = System.nanoTime() + nanos;
                synchronized (rollbacks) {
                    long left;
                    while (!closed && (left = deadline - System.nanoTime()) > 0) {
                        rollbacks.wait(Math.max(1, left / 1_000_000L));
                    }
                }
            }
            if (stalled) {
                faults.stall("the rollback of lost connection " + spid + " (" + rows + " rows)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (rollbacks) {
                rollbacksNow--;
            }
        }
    }

    /** Number of currently open client connections. */
    public int openConnections() {
        return connections.size();
    }

    public Catalog catalog() {
        return catalog;
    }

    public EmulatorDatabase database() {
        return database;
    }

    public LockManager locks() {
        return locks;
    }

    public void addBulkRowsDecoded(long n) {
        bulkRowsDecoded.addAndGet(n);
    }

    public void sessionEncrypted() {
        encryptedSessions.incrementAndGet();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Stops the listener, closes client sockets (rolling back their work) and drops the H2 database. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (rollbacks) {
            rollbacks.notifyAll(); // simulated rollbacks end now
        }
        faults.shutdown(); // releases every stall; none begins any more
        locks.close();
        try {
            listener.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing listener", e);
        }
        for (ConnectionHandler h : connections) {
            h.abort();
        }
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ConnectionHandler h : connections) {
            h.awaitTermination(5000);
        }
        try {
            database.close();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "closing H2 database", e);
        }
    }

    static boolean isSocketClosedError(IOException e) {
        return e instanceof SocketException || e instanceof java.io.EOFException;
    }
}
