package flinkx.standin;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;

/**
 * A Sink V2 of rows on the API of Flink 1.19 and later (a writer made from a WriterInitContext). It extends
 * DiscardingSink only for the one writer method both 1.20 (a default method) and 2.x (the abstract one) have.
 * api/1.15/ has the same class on 1.15's API.
 */
public abstract class RowSink extends DiscardingSink<RowData> {
    private static final long serialVersionUID = 1L;

    abstract SinkWriter<RowData> writer();

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
        return writer();
    }

    static Sink<RowData> discarding() {
        return new DiscardingSink<>();
    }
}
