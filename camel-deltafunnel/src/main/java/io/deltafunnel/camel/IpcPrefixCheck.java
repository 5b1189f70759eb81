package io.deltafunnel.camel;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;

import io.deltafunnel.arrow.ArrowIpcException;

/**
 * Refuses an input that cannot be Arrow IPC before Arrow Java's stream reader sees it (plain Java, no Camel).
 *
 * <p>An IPC stream starts with its first message's metadata length: {@code 0xFFFFFFFF} and an int32 little-endian
 * length (or, before Arrow 0.15, the length alone). Arrow Java's {@code MessageSerializer.readMessage} allocates a
 * heap buffer of that length before it reads a byte of it. For an input that is no Arrow at all the "length" is
 * whatever its first bytes say: a text file starting with {@code this} declares 1,936,287,860 bytes, so a 2 GB heap
 * either stalls for seconds collecting garbage to find room or fails with an {@link OutOfMemoryError}, which Camel's
 * file consumer does not survive (the file stays marked in progress, the exchange never completes, and a one-shot
 * job never ends). This check reads the first 8 bytes and refuses a declared length that is negative, larger than
 * what the input holds (a file or {@code byte[]}: exactly; a stream: more than {@link #MAX_STREAM_METADATA}), with
 * an {@link ArrowIpcException} naming the input and its first bytes. The IPC file format ({@code ARROW1} magic)
 * is not checked here: its reader validates the footer length against the file's size.
 *
 * <p>Only the first message is checked: enough for an input that is not Arrow at all. A later message with a broken
 * length (a corrupted stream) still reaches Arrow's reader; checking every message belongs in
 * {@code io.deltafunnel.arrow.ArrowIpc}, which reads the messages.
 */
final class IpcPrefixCheck {

    /**
     * The largest first-message metadata accepted from a stream of unknown size: a schema message takes about a
     * hundred bytes per column, so 64 MiB is far beyond any real schema.
     */
    static final int MAX_STREAM_METADATA = 64 * 1024 * 1024;

    private static final byte[] FILE_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);
    private static final int CONTINUATION = 0xFFFFFFFF;

    private IpcPrefixCheck() {
    }

    /** Checks the file at {@code path}. */
    static void check(Path path) {
        byte[] head = new byte[8];
        long size;
        int n = 0;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            size = channel.size();
            ByteBuffer buffer = ByteBuffer.wrap(head);
            int r;
            while (buffer.hasRemaining() && (r = channel.read(buffer)) >= 0) {
                n += r;
            }
        } catch (IOException e) {
            return; // the reader names what cannot be read
        }
        check(path.toString(), head, n, size);
    }

    /** Checks {@code bytes}. */
    static void check(byte[] bytes) {
        check("byte[" + bytes.length + "]", Arrays.copyOf(bytes, Math.min(8, bytes.length)),
                Math.min(8, bytes.length), bytes.length);
    }

    /**
     * Checks the start of {@code in}; returns the stream to read from instead (the same bytes, none consumed).
     */
    static InputStream check(InputStream in) {
        InputStream peekable = in.markSupported() ? in : new BufferedInputStream(in, 64 * 1024);
        byte[] head = new byte[8];
        int n;
        try {
            peekable.mark(head.length);
            n = peekable.readNBytes(head, 0, head.length);
            peekable.reset();
        } catch (IOException e) {
            return peekable; // the reader names what cannot be read
        }
        check("InputStream", head, n, -1);
        return peekable;
    }

    /**
     * @param head the first {@code n} bytes of the input
     * @param size the input's size in bytes; -1 when unknown (a stream)
     */
    private static void check(String source, byte[] head, int n, long size) {
        if (n >= FILE_MAGIC.length && Arrays.equals(head, 0, FILE_MAGIC.length, FILE_MAGIC, 0, FILE_MAGIC.length)) {
            return;
        }
        if (n < 4) {
            return; // too short to declare anything: the reader reports the missing schema
        }
        ByteBuffer le = ByteBuffer.wrap(head, 0, n).order(ByteOrder.LITTLE_ENDIAN);
        int first = le.getInt();
        long prefix = 4;
        long declared = first;
        if (first == CONTINUATION) {
            if (n < 8) {
                return;
            }
            declared = le.getInt();
            prefix = 8;
        }
        long limit = size >= 0 ? size - prefix : MAX_STREAM_METADATA;
        if (declared >= 0 && declared <= limit) {
            return;
        }
        String has = size >= 0 ? "the input holds only " + String.format(Locale.ROOT, "%,d", size) + " bytes"
                : "more than " + String.format(Locale.ROOT, "%,d", MAX_STREAM_METADATA) + " bytes of metadata is no"
                  + " Arrow schema";
        throw new ArrowIpcException(source, 0, "not a readable Arrow IPC stream or file: its first message would"
                + " declare " + String.format(Locale.ROOT, "%,d", declared) + " bytes of metadata, but " + has
                + "; the input starts with " + describe(head, n) + ", which is no Arrow IPC stream (0xFFFFFFFF and a"
                + " length) nor file (ARROW1)", null);
    }

    /** The first bytes in hex, with their printable ASCII form. */
    private static String describe(byte[] head, int n) {
        StringBuilder hex = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int b = head[i] & 0xFF;
            hex.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%02x", b));
            text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
        }
        return hex + " (\"" + text + "\")";
    }
}
