package io.deltafunnel.camel;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.ArrowIpc;
import io.deltafunnel.arrow.ArrowJsonLines;
import io.deltafunnel.arrow.ArrowRows;
import io.deltafunnel.arrow.RecordBatches;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Converter;
import org.apache.camel.Exchange;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * Camel type converters for Arrow bodies, loaded through the generated {@code TypeConverterLoader}.
 *
 * <p><b>From a root</b> ({@link VectorSchemaRoot}): IPC stream {@code byte[]}/{@link InputStream}, JSON lines
 * {@link String}, and {@code List<Map<String,Object>>}. These are copies: the root stays owned by whoever owned it
 * (the {@code deltafunnel:} consumer closes its batch when the exchange completes).
 *
 * <p><b>To a root</b>, from Arrow IPC (stream or file format) in a {@code byte[]}, {@link InputStream}, {@link File}
 * or {@link Path} (and so from the file component's {@code GenericFile}): all record batches of the input in one
 * root, allocated from the context's {@link ArrowConversionMemory}. <b>The exchange owns such a root</b>: it is
 * closed when the exchange completes. Do not keep it beyond that; copy it. Converting without an exchange is refused
 * (there would be nobody to close the root): read with {@link ArrowIpc} and your own allocator instead.
 */
@Converter(generateLoader = true)
public final class DeltaFunnelArrowConverters {

    private DeltaFunnelArrowConverters() {
    }

    /** The IPC stream bytes (schema, one record batch, end-of-stream) of the root. */
    @Converter
    public static byte[] toBytes(VectorSchemaRoot root) {
        return ArrowIpc.toStreamBytes(root);
    }

    /** The IPC stream of the root, over a copy of its bytes. */
    @Converter
    public static InputStream toInputStream(VectorSchemaRoot root) {
        return new ByteArrayInputStream(ArrowIpc.toStreamBytes(root));
    }

    /** One JSON object per row and line, rendered as the SQL Server writer renders nested values. */
    @Converter
    public static String toJsonLines(VectorSchemaRoot root) {
        return ArrowJsonLines.toJsonLines(root);
    }

    /** One {@code LinkedHashMap} per row, column name to plain Java value (nested values as JSON text). */
    @Converter
    public static List<Map<String, Object>> toRows(VectorSchemaRoot root) {
        return ArrowRows.toRows(root);
    }

    /** All record batches of an IPC stream or file, in one root owned by the exchange. */
    @Converter
    public static VectorSchemaRoot fromBytes(byte[] bytes, Exchange exchange) {
        BufferAllocator allocator = allocator(exchange);
        try (RecordBatches batches = ArrowIpc.read(bytes, allocator)) {
            return ownedByExchange(ArrowIpc.readAll(batches, allocator), exchange);
        }
    }

    /** All record batches of an IPC stream or file read from {@code in} (which is closed), owned by the exchange. */
    @Converter
    public static VectorSchemaRoot fromInputStream(InputStream in, Exchange exchange) {
        BufferAllocator allocator = allocator(exchange);
        try (RecordBatches batches = ArrowIpc.read(in, allocator)) {
            return ownedByExchange(ArrowIpc.readAll(batches, allocator), exchange);
        }
    }

    /** All record batches of an {@code .arrows} (stream) or {@code .arrow} (file) file, owned by the exchange. */
    @Converter
    public static VectorSchemaRoot fromFile(File file, Exchange exchange) {
        return fromPath(file.toPath(), exchange);
    }

    /** All record batches of an {@code .arrows} (stream) or {@code .arrow} (file) file, owned by the exchange. */
    @Converter
    public static VectorSchemaRoot fromPath(Path path, Exchange exchange) {
        BufferAllocator allocator = allocator(exchange);
        try (RecordBatches batches = ArrowIpc.read(path, allocator)) {
            return ownedByExchange(ArrowIpc.readAll(batches, allocator), exchange);
        }
    }

    private static BufferAllocator allocator(Exchange exchange) {
        if (exchange == null) {
            throw new IllegalArgumentException("converting Arrow IPC to a VectorSchemaRoot needs an exchange to own"
                    + " the root; without one, read it with io.deltafunnel.arrow.ArrowIpc and your own allocator");
        }
        return ArrowConversionMemory.allocator(exchange.getContext());
    }

    static VectorSchemaRoot ownedByExchange(VectorSchemaRoot root, Exchange exchange) {
        exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange done) {
                root.close();
            }
        });
        return root;
    }
}
