package io.deltafunnel.camel;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Path;

import io.deltafunnel.arrow.ArrowIpc;
import io.deltafunnel.arrow.ArrowJsonLines;
import io.deltafunnel.arrow.RecordBatches;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.InvalidPayloadException;
import org.apache.camel.Message;
import org.apache.camel.StreamCache;
import org.apache.camel.WrappedFile;

/**
 * Resolves the body the {@code deltafunnel-mssql:} producer writes into a sequence of Arrow record batches.
 *
 * <ul>
 *   <li>a {@link VectorSchemaRoot}: that one batch, borrowed (its owner, e.g. the {@code deltafunnel:} consumer or
 *       a conversion's exchange, closes it);</li>
 *   <li>Arrow IPC, stream or file format, as {@link Path}, {@link File}, a file component's {@code GenericFile},
 *       {@code byte[]}, {@link InputStream} or stream cache: each record batch in turn, read one batch ahead from the
 *       context's {@link ArrowConversionMemory} and released by the returned sequence;</li>
 *   <li>a {@link String} with {@code Content-Type} {@code application/json} (as the {@code deltafunnel:application-json}
 *       data type sets it; also {@code application/x-ndjson}, {@code application/jsonl}): JSON lines, one batch with
 *       inferred column types ({@link ArrowJsonLines#fromJsonLines}), released by the returned sequence;</li>
 *   <li>anything else a type converter turns into a {@link VectorSchemaRoot}: that root, borrowed.</li>
 * </ul>
 * An IPC body that cannot be Arrow (its first message would declare more bytes than it holds) is refused before
 * Arrow's reader allocates them ({@link IpcPrefixCheck}). The caller closes the returned sequence.
 */
final class ArrowBodies {

    private ArrowBodies() {
    }

    static RecordBatches batches(Exchange exchange) throws InvalidPayloadException {
        Message in = exchange.getIn();
        Object body = in.getBody();
        if (body instanceof VectorSchemaRoot root) {
            return RecordBatches.borrowing(root);
        }
        if (body instanceof WrappedFile<?> wrapped && wrapped.getFile() instanceof File file) {
            body = file;
        }
        if (body instanceof File file) {
            body = file.toPath();
        }
        if (body instanceof Path path) {
            IpcPrefixCheck.check(path);
            return ArrowIpc.read(path, ArrowConversionMemory.allocator(exchange.getContext()));
        }
        if (body instanceof byte[] bytes) {
            IpcPrefixCheck.check(bytes);
            return ArrowIpc.read(bytes, ArrowConversionMemory.allocator(exchange.getContext()));
        }
        if (body instanceof InputStream || body instanceof StreamCache || body instanceof WrappedFile) {
            InputStream stream = in.getMandatoryBody(InputStream.class);
            InputStream checked;
            try {
                checked = IpcPrefixCheck.check(stream);
            } catch (RuntimeException e) {
                try {
                    stream.close();
                } catch (java.io.IOException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
            return ArrowIpc.read(checked, ArrowConversionMemory.allocator(exchange.getContext()));
        }
        if (body instanceof String text && isJson(in.getHeader(Exchange.CONTENT_TYPE, String.class))) {
            return RecordBatches.owning(ArrowJsonLines.fromJsonLines(text,
                    ArrowConversionMemory.allocator(exchange.getContext())));
        }
        VectorSchemaRoot root = body == null ? null : in.getBody(VectorSchemaRoot.class);
        if (root == null) {
            throw new InvalidPayloadException(exchange, VectorSchemaRoot.class);
        }
        return RecordBatches.borrowing(root);
    }

    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
        return type.equals("application/json") || type.equals("application/x-ndjson")
                || type.equals("application/jsonl");
    }
}
