package io.deltafunnel.camel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/** Records what each exchange carried while its batch was still valid. */
final class BatchRecorder implements Processor {

    /** One exchange as seen by the route. */
    record Seen(String runId, int rowCount, long batchRows, long inputBatches, long inputRows, Integer batchIndex,
            Boolean complete, Integer batchSize, List<String> columns) {
    }

    final List<Seen> seen = new CopyOnWriteArrayList<>();

    @Override
    public void process(Exchange exchange) {
        Message in = exchange.getIn();
        VectorSchemaRoot root = in.getBody(VectorSchemaRoot.class);
        seen.add(new Seen(in.getHeader(DeltaFunnelConstants.RUN_ID, String.class), root.getRowCount(),
                in.getHeader(DeltaFunnelConstants.BATCH_ROWS, Long.class),
                in.getHeader(DeltaFunnelConstants.INPUT_BATCHES, Long.class),
                in.getHeader(DeltaFunnelConstants.INPUT_ROWS, Long.class),
                exchange.getProperty(Exchange.BATCH_INDEX, Integer.class),
                exchange.getProperty(Exchange.BATCH_COMPLETE, Boolean.class),
                exchange.getProperty(Exchange.BATCH_SIZE, Integer.class),
                root.getSchema().getFields().stream().map(f -> f.getName()).toList()));
    }
}
