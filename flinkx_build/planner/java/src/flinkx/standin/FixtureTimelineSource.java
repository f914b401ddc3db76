package flinkx.standin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.RowKind;

/**
 * The stand-in source of a case with a timeline ({@link FixtureTimeline}): rows, watermarks and idleness come in
 * the steps the timeline releases, and a lookup sees the table as the steps so far left it.
 *
 * <p>The task's WATERMARK is pushed into the source ({@link SupportsWatermarkPushDown}, as Kafka's table source
 * does), so Flink's own generated watermark generator runs here, on every row, and a scripted watermark step is
 * emitted through the same output: a source's watermark is the larger of the two, and nothing after the source
 * recomputes it (a WatermarkAssigner operator would drop the scripted ones).
 */
public final class FixtureTimelineSource extends FixtureSource implements SupportsWatermarkPushDown {
    private final String timelineId;
    private final String table; // as the timeline's steps name it
    private final int[] primaryKey; // field indexes of the primary key in the produced row, or empty
    private WatermarkStrategy<RowData> watermarks; // null: the task declares none

    FixtureTimelineSource(String original, ChangelogMode mode, Map<String, DataType> metadata, Fixture fixture,
            String timelineId, String table, int[] primaryKey) {
        super(original, mode, metadata, fixture);
        this.timelineId = timelineId;
        this.table = table;
        this.primaryKey = primaryKey;
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        this.watermarks = watermarkStrategy;
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DataType type = producedType();
        FixtureRows.Split shape = new FixtureRows.Split(fixture.rowsJson, fixture.names(metadataKeys), type,
                context.createDataStructureConverter(type), 0);
        FixtureTimelineReader.Rows source = new FixtureTimelineReader.Rows(timelineId, table, shape);
        WatermarkStrategy<RowData> strategy = watermarks == null ? WatermarkStrategy.noWatermarks() : new Eager(watermarks);
        String name = asSummaryString();
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(ProviderContext provider, StreamExecutionEnvironment env) {
                return env.fromSource(source, strategy, name, InternalTypeInfo.of(type.getLogicalType()));
            }

            @Override
            public boolean isBounded() {
                return true; // the input ends with the timeline
            }
        };
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        DataType type = producedType();
        return KeyLookup.provider(new AsOfLookup(new FixtureRows.Split(fixture.rowsJson,
                fixture.names(metadataKeys), type, context.createDataStructureConverter(type), 0),
                keyFields(context), timelineId, table, primaryKey));
    }

    @Override
    public DynamicTableSource copy() {
        FixtureTimelineSource copy = new FixtureTimelineSource(original, mode, metadata, fixture, timelineId, table,
                primaryKey);
        copy.metadataKeys = new ArrayList<>(metadataKeys);
        copy.produced = produced;
        copy.watermarks = watermarks;
        return copy;
    }

    /**
     * The task's watermark generator, asked for its watermark after every row instead of on a wall-clock period
     * (what {@code pipeline.auto-watermark-interval: 0} does for Flink's own WatermarkAssigner operator): a row's
     * effect on event time does not depend on how fast the machine is.
     */
    static final class Eager implements WatermarkStrategy<RowData> {
        private static final long serialVersionUID = 1L;
        private final WatermarkStrategy<RowData> pushed;

        Eager(WatermarkStrategy<RowData> pushed) {
            this.pushed = pushed;
        }

        @Override
        public WatermarkGenerator<RowData> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
            WatermarkGenerator<RowData> inner = pushed.createWatermarkGenerator(context);
            return new WatermarkGenerator<RowData>() {
                @Override
                public void onEvent(RowData event, long eventTimestamp, WatermarkOutput output) {
                    inner.onEvent(event, eventTimestamp, output);
                    inner.onPeriodicEmit(output);
                }

                @Override
                public void onPeriodicEmit(WatermarkOutput output) {
                    inner.onPeriodicEmit(output);
                }
            };
        }

        @Override
        public TimestampAssigner<RowData> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
            return pushed.createTimestampAssigner(context);
        }
    }

    /**
     * A lookup that sees the table as the timeline has left it so far: the given rows, then the changes of every
     * released step in order (+I/+U put a row, replacing one of the same primary key; -U/-D take it away). A probe
     * row is looked up while its own step plays, so what it finds does not depend on timing.
     */
    public static final class AsOfLookup extends FixtureSource.Lookup {
        private static final long serialVersionUID = 1L;
        private final String timelineId;
        private final String table;
        private final int[] primaryKey;
        private transient int seenStep;
        private transient List<RowData> current;
        private transient RowData.FieldGetter[] allFields;

        AsOfLookup(FixtureRows.Split rowsOf, int[] keyFields, String timelineId, String table, int[] primaryKey) {
            super(rowsOf, keyFields);
            this.timelineId = timelineId;
            this.table = table;
            this.primaryKey = primaryKey;
        }

        @Override
        public void open(FunctionContext context) throws Exception {
            super.open(context);
            List<DataType> types = rowsOf.produced.getChildren();
            allFields = new RowData.FieldGetter[types.size()];
            for (int i = 0; i < types.size(); i++) {
                allFields[i] = RowData.createFieldGetter(types.get(i).getLogicalType(), i);
            }
            seenStep = Integer.MIN_VALUE;
        }

        @Override
        List<RowData> rows() {
            FixtureTimeline timeline = FixtureTimeline.of(timelineId);
            int released = Math.min(timeline.released(), timeline.steps().size() - 1);
            if (released != seenStep) {
                List<RowData> rows = new ArrayList<>();
                apply(rows, super.rows());
                for (int step = 0; step <= released; step++) {
                    String json = timeline.rowsOf(step, table);
                    if (json != null) {
                        apply(rows, new FixtureRows.Split(json, rowsOf.names, rowsOf.produced, rowsOf.converter, 0).rows());
                    }
                }
                current = rows;
                seenStep = released;
            }
            return current;
        }

        private void apply(List<RowData> rows, List<RowData> changes) {
            for (RowData change : changes) {
                RowKind kind = change.getRowKind();
                boolean put = kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER;
                if (primaryKey.length > 0 || !put) {
                    int[] fields = primaryKey.length > 0 ? primaryKey : null;
                    for (int i = 0; i < rows.size(); i++) {
                        if (same(rows.get(i), change, fields)) {
                            rows.remove(i);
                            break;
                        }
                    }
                }
                if (put) {
                    if (change instanceof GenericRowData) {
                        ((GenericRowData) change).setRowKind(RowKind.INSERT);
                    }
                    rows.add(change);
                }
            }
        }

        private boolean same(RowData a, RowData b, int[] fields) {
            int count = fields != null ? fields.length : allFields.length;
            for (int i = 0; i < count; i++) {
                RowData.FieldGetter getter = allFields[fields != null ? fields[i] : i];
                Object left = getter.getFieldOrNull(a);
                Object right = getter.getFieldOrNull(b);
                if (left == null ? right != null : !left.equals(right)) {
                    return false;
                }
            }
            return true;
        }
    }
}
