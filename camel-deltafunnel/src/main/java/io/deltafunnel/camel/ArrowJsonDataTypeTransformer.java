package io.deltafunnel.camel;

import io.deltafunnel.arrow.ArrowJsonLines;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.spi.DataType;
import org.apache.camel.spi.DataTypeTransformer;
import org.apache.camel.spi.Transformer;

/**
 * Data type {@code deltafunnel:application-json}: the body becomes JSON lines ({@code String}, one JSON object per
 * row and line, see {@link ArrowJsonLines}) and {@code Content-Type} is set to {@value #MEDIA_TYPE}. A
 * {@link VectorSchemaRoot} body is copied (its owner still closes it); a {@code String} body is taken as JSON lines
 * already; any other body is first converted to a root (e.g. Arrow IPC bytes).
 */
@DataTypeTransformer(name = ArrowJsonDataTypeTransformer.NAME,
                     description = "JSON lines (application/json, one object per row) of the Arrow batch")
public class ArrowJsonDataTypeTransformer extends Transformer {

    public static final String NAME = "deltafunnel:application-json";
    public static final String MEDIA_TYPE = "application/json";

    @Override
    public void transform(Message message, DataType from, DataType to) throws Exception {
        Object body = message.getBody();
        if (!(body instanceof String)) {
            VectorSchemaRoot root = body instanceof VectorSchemaRoot r ? r : message.getMandatoryBody(VectorSchemaRoot.class);
            message.setBody(ArrowJsonLines.toJsonLines(root));
        }
        message.setHeader(Exchange.CONTENT_TYPE, MEDIA_TYPE);
    }
}
