package io.deltafunnel.mssql.channel;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the JVM's AES-GCM code to its compiled speed before the first load, in a background thread.
 *
 * <p>Every byte a load sends over TLS (SQL Server's TLS 1.2 and 1.3 suites are AES-GCM) goes through the JDK's
 * {@code AES/GCM/NoPadding}. Its fast form (AES-NI and carry-less multiply) exists only in the optimizing JIT
 * compiler, which compiles the cipher's methods once they have been called some thousands of times: a fresh JVM's
 * first 1 M-row load spent about 0.5 s of its route thread encrypting, which a warmed JVM does in tens of
 * milliseconds ({@code docs/performance.md}, "TLS warmed up before the first load"). The calls, not the bytes, are
 * what the compiler counts, so this class encrypts and decrypts {@value #RECORDS} small records (about 5 MB, a tenth
 * of a second of one core) with a throw-away key, then a few records of TLS's full 16 KiB size, while Camel and the
 * route start. A measured gain on Java 25 with an ahead-of-time cache (the container image); none shown on Java 17,
 * whose first run is dominated by compiling everything else.
 *
 * <p>Nothing it computes is used, it holds no secret (the key and data are zeros), and it changes no state a load
 * can see. It runs at most once per JVM ({@link #startOnce}); a failure (a JVM without AES-GCM) is logged at DEBUG and
 * changes nothing for the loads.
 */
public final class CipherWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(CipherWarmup.class);

    /** Small records encrypted and decrypted: enough calls for the JIT's optimizing tier on Java 17 and 25. */
    static final int RECORDS = 10_000;
    /** The small records' size in bytes. */
    static final int SMALL = 512;
    /** Full-size TLS records (16 KiB) encrypted and decrypted after the small ones. */
    static final int FULL_RECORDS = 64;
    /** TLS's largest record payload. */
    static final int FULL = 16_384;

    /** Calls of {@link #startOnce}: the first starts the thread. */
    private static final AtomicInteger REQUESTS = new AtomicInteger();

    private CipherWarmup() {
    }

    /**
     * Starts the warm-up in a daemon thread ({@code deltafunnel-cipher-warmup}) unless it was started before in this
     * JVM; returns whether this call started it. The thread ends by itself.
     */
    public static boolean startOnce() {
        if (REQUESTS.getAndIncrement() > 0) {
            return false;
        }
        Thread t = new Thread(() -> {
            try {
                long bytes = run(RECORDS, FULL_RECORDS);
                LOG.debug("AES-GCM warm-up done: {} bytes encrypted and decrypted", bytes);
            } catch (GeneralSecurityException | RuntimeException e) {
                LOG.debug("AES-GCM warm-up stopped: {}", e.toString());
            }
        }, "deltafunnel-cipher-warmup");
        t.setDaemon(true);
        t.start();
        return true;
    }

    /** How many times {@link #startOnce} was called in this JVM, whether or not it started the thread (diagnostics). */
    public static int requests() {
        return REQUESTS.get();
    }

    /** Whether {@link #startOnce} has started the warm-up in this JVM. */
    public static boolean started() {
        return REQUESTS.get() > 0;
    }

    /**
     * Encrypts and decrypts {@code small} records of {@value #SMALL} bytes and {@code full} of {@value #FULL} bytes as
     * TLS does (a fresh 12-byte nonce and 13 bytes of additional data per record, heap buffers); returns the payload
     * bytes that made the round trip.
     *
     * @throws GeneralSecurityException the JVM offers no {@code AES/GCM/NoPadding}, or a record does not decrypt to
     *                                  what was encrypted
     */
    static long run(int small, int full) throws GeneralSecurityException {
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding");
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding");
        SecretKeySpec key = new SecretKeySpec(new byte[32], "AES");
        byte[] nonce = new byte[12];
        byte[] aad = new byte[13];
        long bytes = 0;
        long counter = 0;
        for (int size : new int[] {SMALL, FULL}) {
            ByteBuffer plain = ByteBuffer.allocate(size);
            ByteBuffer sealed = ByteBuffer.allocate(size + 16);
            ByteBuffer opened = ByteBuffer.allocate(size + 16);
            int records = size == SMALL ? small : full;
            for (int i = 0; i < records; i++) {
                counter++;
                for (int b = 0; b < 8; b++) {
                    nonce[4 + b] = (byte) (counter >>> (8 * b)); // GCM refuses a nonce used before with the key
                }
                GCMParameterSpec spec = new GCMParameterSpec(128, nonce);
                enc.init(Cipher.ENCRYPT_MODE, key, spec);
                enc.updateAAD(aad);
                plain.clear();
                sealed.clear();
                enc.doFinal(plain, sealed);
                dec.init(Cipher.DECRYPT_MODE, key, spec);
                dec.updateAAD(aad);
                sealed.flip();
                opened.clear();
                if (dec.doFinal(sealed, opened) != size) {
                    throw new GeneralSecurityException("AES-GCM warm-up: a record of " + size
                            + " bytes did not decrypt to its size");
                }
                bytes += size;
            }
        }
        return bytes;
    }
}
