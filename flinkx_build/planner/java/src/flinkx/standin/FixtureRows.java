package flinkx.standin;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceEnumerator;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceReader;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.source.DynamicTableSource.DataStructureConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.util.InstantiationUtil;

/**
 * A test's rows as a bounded Source V2: one split holding every row, read in the order given, then the input
 * ends (the source then emits the final watermark, so every event-time window fires, as at the end of real
 * input). Flink's own iterator source classes do the reading; this only says what the rows are.
 */
public final class FixtureRows implements Source<RowData, FixtureRows.Split, Collection<FixtureRows.Split>> {
    private static final long serialVersionUID = 1L;

    private final Split split;

    FixtureRows(Split split) {
        this.split = split;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, Split> createReader(SourceReaderContext context) {
        return new IteratorSourceReader<>(context);
    }

    @Override
    public SplitEnumerator<Split, Collection<Split>> createEnumerator(SplitEnumeratorContext<Split> context) {
        return new IteratorSourceEnumerator<>(context, Collections.singletonList(split));
    }

    @Override
    public SplitEnumerator<Split, Collection<Split>> restoreEnumerator(SplitEnumeratorContext<Split> context,
            Collection<Split> checkpoint) {
        return new IteratorSourceEnumerator<>(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new JavaSerializer<>();
    }

    @Override
    public SimpleVersionedSerializer<Collection<Split>> getEnumeratorCheckpointSerializer() {
        return new JavaSerializer<>();
    }

    /** The rows (as JSON, see {@link FixtureValues}) and how far they have been read. */
    public static final class Split implements IteratorSourceSplit<RowData, Position>, Serializable {
        private static final long serialVersionUID = 1L;
        final String rowsJson;
        final List<String> names;
        final DataType produced;
        final DataStructureConverter converter;
        final int offset;

        Split(String rowsJson, List<String> names, DataType produced, DataStructureConverter converter, int offset) {
            this.rowsJson = rowsJson;
            this.names = new ArrayList<>(names);
            this.produced = produced;
            this.converter = converter;
            this.offset = offset;
        }

        /** Every row, as Flink's internal RowData of the produced type. */
        List<RowData> rows() {
            converter.open(RuntimeConverter.Context.create(FixtureRows.class.getClassLoader()));
            List<DataType> types = produced.getChildren();
            List<RowData> rows = new ArrayList<>();
            FixtureValues.parse(rowsJson).forEach(row -> rows.add((RowData) converter.toInternal(FixtureValues.toRow(row, names, types))));
            return rows;
        }

        @Override
        public String splitId() {
            return "0";
        }

        @Override
        public Position getIterator() {
            return new Position(rows(), offset);
        }

        @Override
        public IteratorSourceSplit<RowData, Position> getUpdatedSplitForIterator(Position position) {
            return new Split(rowsJson, names, produced, converter, position.next);
        }
    }

    /** Reads the rows from an index on. */
    public static final class Position implements Iterator<RowData> {
        private final List<RowData> rows;
        private int next;

        Position(List<RowData> rows, int next) {
            this.rows = rows;
            this.next = next;
        }

        @Override
        public boolean hasNext() {
            return next < rows.size();
        }

        @Override
        public RowData next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.get(next++);
        }
    }

    /** Splits and checkpoints by Java serialization: they hold only flinkx's and Flink's own classes. */
    static final class JavaSerializer<T> implements SimpleVersionedSerializer<T> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(T value) throws IOException {
            return InstantiationUtil.serializeObject(value);
        }

        @Override
        public T deserialize(int version, byte[] bytes) throws IOException {
            try {
                return InstantiationUtil.deserializeObject(bytes, FixtureRows.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IOException(e);
            }
        }
    }
}
