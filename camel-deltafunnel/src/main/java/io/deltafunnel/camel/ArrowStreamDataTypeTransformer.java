package io.deltafunnel.camel;

import io.deltafunnel.arrow.ArrowIpc;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.spi.DataType;
import org.apache.camel.spi.DataTypeTransformer;
import org.apache.camel.spi.Transformer;

/**
 * Data type {@code deltafunnel:application-vnd.apache.arrow.stream}: the body becomes Arrow IPC stream bytes
 * ({@code byte[]}: schema, one record batch, end-of-stream) and {@code Content-Type} is set to
 * {@value #MEDIA_TYPE}. A {@link VectorSchemaRoot} body is copied (its owner still closes it); a {@code byte[]} body
 * is taken as IPC bytes already; any other body is first converted to a root (Arrow IPC file or stream as
 * {@code InputStream}/{@code File}/...).
 */
@DataTypeTransformer(name = ArrowStreamDataTypeTransformer.NAME,
                     description = "Arrow IPC stream bytes (application/vnd.apache.arrow.stream) of the Arrow batch")
public class ArrowStreamDataTypeTransformer extends Transformer {

    public static final String NAME = "deltafunnel:application-vnd.apache.arrow.stream";
    public static final String MEDIA_TYPE = "application/vnd.apache.arrow.stream";

    @Override
    public void transform(Message message, DataType from, DataType to) throws Exception {
        Object body = message.getBody();
        if (!(body instanceof byte[])) {
            VectorSchemaRoot root = body instanceof VectorSchemaRoot r ? r : message.getMandatoryBody(VectorSchemaRoot.class);
            message.setBody(ArrowIpc.toStreamBytes(root));
        }
        message.setHeader(Exchange.CONTENT_TYPE, MEDIA_TYPE);
    }
}
