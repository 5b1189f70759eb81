package io.deltafunnel.camel;

import io.deltafunnel.arrow.ArrowJsonLines;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.spi.DataType;
import org.apache.camel.spi.DataTypeTransformer;
import org.apache.camel.spi.Transformer;

/**
 * Data type {@code deltafunnel:application-x-java-object}: the body becomes the in-memory Arrow batch
 * ({@link VectorSchemaRoot}) and {@code Content-Type} is set to {@value #MEDIA_TYPE}. A root body stays as it is
 * (no copy; its owner still closes it). Arrow IPC ({@code byte[]}, {@code InputStream}, file) is converted by the
 * type converters, JSON lines ({@code String}) by {@link ArrowJsonLines#fromJsonLines}; such a new root is owned by
 * the exchange and closed when it completes.
 */
@DataTypeTransformer(name = ArrowRootDataTypeTransformer.NAME,
                     description = "The Arrow batch in memory (org.apache.arrow.vector.VectorSchemaRoot)")
public class ArrowRootDataTypeTransformer extends Transformer {

    public static final String NAME = "deltafunnel:application-x-java-object";
    public static final String MEDIA_TYPE = "application/x-java-object";

    @Override
    public void transform(Message message, DataType from, DataType to) throws Exception {
        Object body = message.getBody();
        if (body instanceof String text) {
            Exchange exchange = message.getExchange();
            message.setBody(DeltaFunnelArrowConverters.ownedByExchange(ArrowJsonLines.fromJsonLines(text,
                    ArrowConversionMemory.allocator(exchange.getContext())), exchange));
        } else if (!(body instanceof VectorSchemaRoot)) {
            message.setBody(message.getMandatoryBody(VectorSchemaRoot.class));
        }
        message.setHeader(Exchange.CONTENT_TYPE, MEDIA_TYPE);
    }
}
