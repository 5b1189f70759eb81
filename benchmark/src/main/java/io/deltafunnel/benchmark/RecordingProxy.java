package io.deltafunnel.benchmark;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy between mssql-jdbc and the emulator that counts the bytes in both directions and, when given a
 * directory, records every client-to-server byte stream to a file (one per connection, in accept order). Only
 * meaningful with {@code encrypt=false}: with TLS the recorded bytes could not be replayed.
 */
final class RecordingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final Path recordDir;
    private final AtomicLong clientToServer = new AtomicLong();
    private final AtomicLong serverToClient = new AtomicLong();
    private final List<Path> recordings = new CopyOnWriteArrayList<>();
    private final List<Thread> pumps = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    RecordingProxy(int targetPort, Path recordDir) throws IOException {
        this.targetPort = targetPort;
        this.recordDir = recordDir;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "recording-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    long clientToServerBytes() {
        return clientToServer.get();
    }

    long serverToClientBytes() {
        return serverToClient.get();
    }

    int connections() {
        return pumps.size() / 2;
    }

    void resetCounters() {
        clientToServer.set(0);
        serverToClient.set(0);
    }

    /** The recorded client-to-server streams, in accept order; complete once the connections have closed. */
    List<Path> recordings() {
        return new ArrayList<>(recordings);
    }

    /** Waits until every proxied connection has been closed by both sides. */
    void awaitIdle() throws InterruptedException {
        for (Thread t : pumps) {
            t.join();
        }
    }

    private void accept() {
        int n = 0;
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                OutputStream record = null;
                if (recordDir != null) {
                    Path file = recordDir.resolve(String.format("conn-%03d.bin", n++));
                    recordings.add(file);
                    record = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
                }
                start(pump(client, server, clientToServer, record), "proxy-c2s");
                start(pump(server, client, serverToClient, null), "proxy-s2c");
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("proxy: " + e);
                }
                return;
            }
        }
    }

    private void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        pumps.add(t);
        t.start();
    }

    private static Runnable pump(Socket from, Socket to, AtomicLong counter, OutputStream record) {
        return () -> {
            byte[] buf = new byte[1 << 16];
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (record != null) {
                        record.write(buf, 0, n);
                    }
                    out.write(buf, 0, n);
                    counter.addAndGet(n);
                }
            } catch (IOException e) {
                // connection closed
            } finally {
                try {
                    if (record != null) {
                        record.close();
                    }
                } catch (IOException e) {
                    System.err.println("proxy: closing recording: " + e);
                }
                try {
                    to.shutdownOutput();
                } catch (IOException e) {
                    // already closed
                }
            }
        };
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
