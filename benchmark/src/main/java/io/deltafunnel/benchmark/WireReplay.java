package io.deltafunnel.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replays recorded client-to-server TDS byte streams (login, metadata queries, INSERT BULK, BULK_LOAD, commit) on a
 * raw socket, one connection after the other, while a second thread drains the server's answers. No driver is
 * involved: the time is what the emulator needs to take the bytes off the socket and decode every row.
 */
final class WireReplay {

    private WireReplay() {
    }

    /** Replays all streams against {@code port}; returns the bytes the server sent back. */
    static long replay(List<byte[]> streams, int port) throws IOException, InterruptedException {
        long answered = 0;
        for (byte[] stream : streams) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setTcpNoDelay(true);
                                AtomicLong received = new AtomicLong();
                Thread drain = new Thread(() -> {
                    byte[] buf = new byte[1 << 16];
                    try (InputStream in = s.getInputStream()) {
                        int n;
                        while ((n = in.read(buf)) > 0) {
                            received.addAndGet(n);
                        }
                    } catch (IOException e) {
                        // server closed
                    }
                }, "replay-drain");
                drain.setDaemon(true);
                drain.start();
                OutputStream out = s.getOutputStream();
                int chunk = 1 << 16;
                for (int off = 0; off < stream.length; off += chunk) {
                    out.write(stream, off, Math.min(chunk, stream.length - off));
                }
                out.flush();
                s.shutdownOutput();
                // The server answers everything, sees the end of the stream and closes: the drain ends.
                drain.join();
                answered += received.get();
            }
        }
        return answered;
    }
}
