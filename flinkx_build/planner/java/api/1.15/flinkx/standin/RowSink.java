package flinkx.standin;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.table.data.RowData;

/**
 * A Sink V2 of rows on Flink 1.15's API (a writer made from a Sink.InitContext; 1.15 has no Sink V2
 * DiscardingSink). api/1.19/ has the same class on the API of 1.19 and later.
 */
public abstract class RowSink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    abstract SinkWriter<RowData> writer();

    @Override
    public SinkWriter<RowData> createWriter(InitContext context) {
        return writer();
    }

    static Sink<RowData> discarding() {
        return new RowSink() {
            private static final long serialVersionUID = 1L;

            @Override
            SinkWriter<RowData> writer() {
                return new SinkWriter<RowData>() {
                    @Override
                    public void write(RowData value, Context writeContext) {}

                    @Override
                    public void flush(boolean endOfInput) {}

                    @Override
                    public void close() {}
                };
            }
        };
    }
}
