package io.deltafunnel.arrow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The per-batch Arrow transform that turns dictionary-encoded columns (DuckDB {@code ENUM}s, pyarrow
 * {@code dictionary<...>} columns in IPC) into plain columns of their value type: every dictionary-encoded vector of a
 * batch, at top level or inside structs, lists and maps, is replaced by the dictionary values its indices point at
 * (a NULL index stays NULL). Nothing after it needs to know about dictionaries: the SQL Server writer, {@code
 * createTable} (which then sees the value type, e.g. {@code Utf8} → {@code nvarchar(max)}), IPC writing, JSON lines
 * and rows.
 *
 * <p><b>Why here.</b> An Arrow reader keeps the dictionaries in its {@link DictionaryProvider}, outside the
 * {@link VectorSchemaRoot}, and may replace them with the next batch (DuckDB's Arrow export sends each batch's
 * dictionaries with it; IPC streams may carry replacement dictionaries). A root handed on without its provider,
 * and a batch kept while the reader looks one batch ahead, would hold indices whose meaning is gone. So the readers
 * that own a provider ({@code io.deltafunnel.query.ArrowBatchStream}, the IPC readers of {@link ArrowIpc}) decode
 * right after loading a batch, before it leaves them or the next one is loaded.
 *
 * <p><b>Cost when absent.</b> {@link #decode} returns a batch without a dictionary-encoded field as is, after one
 * walk over its schema's fields; callers that know their schema is fixed ask {@link #present} once per stream.
 *
 * <p><b>Ownership.</b> {@link #decode} takes ownership of the root it is given: it returns it unchanged, or closes
 * it after moving its columns into a new root allocated from {@code allocator}, which the caller then owns. Columns
 * without a dictionary are transferred (no copy); decoded ones are written value by value (the dictionary value of
 * each row is copied, {@code ValueVector.copyFromSafe}). The dictionaries stay the provider's; they are only read.
 * If decoding fails, the new root and the given one are both closed before the {@link DictionaryDecodeException} is
 * thrown.
 */
public final class DictionaryColumns {

    private DictionaryColumns() {
    }

    /** True when the schema has a dictionary-encoded field anywhere, that is when {@link #decode} would change it. */
    public static boolean present(Schema schema) {
        for (Field f : schema.getFields()) {
            if (containsDictionary(f)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The schema {@link #decode} produces: every dictionary-encoded field replaced by a field of its dictionary's
     * value type (same name, nullable when the indices or the values are), which is why the provider is needed.
     *
     * @throws DictionaryDecodeException when a dictionary is not in {@code provider} (or {@code provider} is null), or
     *                                   its values are themselves dictionary-encoded
     */
    public static Schema decodedSchema(Schema schema, DictionaryProvider provider) {
        if (!present(schema)) {
            return schema;
        }
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.getFields()) {
            fields.add(decoded(f, provider, f.getName()));
        }
        return new Schema(fields, schema.getCustomMetadata());
    }

    /** See the class comment. {@code provider} holds the dictionaries of the batch in {@code root}. */
    public static VectorSchemaRoot decode(VectorSchemaRoot root, DictionaryProvider provider,
            BufferAllocator allocator) {
        Schema schema = root.getSchema();
        if (!present(schema)) {
            return root;
        }
        VectorSchemaRoot decoded = null;
        try {
            decoded = VectorSchemaRoot.create(decodedSchema(schema, provider), allocator);
            int rows = root.getRowCount();
            for (int c = 0; c < schema.getFields().size(); c++) {
                Field field = schema.getFields().get(c);
                FieldVector src = root.getVector(c);
                FieldVector dst = decoded.getVector(c);
                if (containsDictionary(field)) {
                    Node node = bind(field, src, dst, field.getName(), provider);
                    dst.setInitialCapacity(rows);
                    dst.allocateNew();
                    for (int r = 0; r < rows; r++) {
                        node.copy(r, r, r);
                    }
                } else {
                    src.makeTransferPair(dst).transfer();
                }
            }
            decoded.setRowCount(rows);
        } catch (RuntimeException e) {
            if (decoded != null) {
                decoded.close();
            }
            root.close();
            throw e;
        }
        root.close();
        return decoded;
    }

    /**
     * One vector of a column holding a dictionary-encoded field, bound to its source and target vectors for one
     * batch, so that the per-value work does no look-ups: a dictionary-encoded vector, a struct or list (map) around
     * one, or a subtree without any (copied value by value).
     */
    private abstract static class Node {
        final FieldVector dst;
        final String path;

        Node(FieldVector dst, String path) {
            this.dst = dst;
            this.path = path;
        }

        /** Copies value {@code si} to position {@code di}; {@code row} is the top-level row, for errors. */
        abstract void copy(int si, int di, int row);
    }

    private static Node bind(Field field, FieldVector src, FieldVector dst, String path, DictionaryProvider provider) {
        DictionaryEncoding encoding = field.getDictionary();
        if (encoding != null) {
            if (!(src instanceof BaseIntVector indices)) {
                throw new DictionaryDecodeException(path, -1, "its indices are " + src.getClass().getSimpleName()
                        + ", not an integer vector");
            }
            return new IndexNode(indices, src, dictionary(provider, encoding, path).getVector(), dst, path);
        }
        if (!containsDictionary(field)) {
            return new Node(dst, path) {
                @Override
                void copy(int si, int di, int row) {
                    dst.copyFromSafe(si, di, src);
                }
            };
        }
        if (src instanceof StructVector s) {
            List<FieldVector> from = s.getChildrenFromFields();
            List<FieldVector> to = ((StructVector) dst).getChildrenFromFields();
            List<Node> children = new ArrayList<>();
            for (int k = 0; k < from.size(); k++) {
                children.add(bind(field.getChildren().get(k), from.get(k), to.get(k),
                        path + "." + field.getChildren().get(k).getName(), provider));
            }
            StructVector d = (StructVector) dst;
            return new Node(dst, path) {
                @Override
                void copy(int si, int di, int row) {
                    if (s.isNull(si)) {
                        d.setNull(di);
                        return;
                    }
                    d.setIndexDefined(di);
                    for (Node child : children) {
                        child.copy(si, di, row);
                    }
                }
            };
        }
        if (src instanceof ListVector l) {
            // also MapVector, a list of key/value structs
            ListVector d = (ListVector) dst;
            String elementPath = path + (field.getType() instanceof ArrowType.Map ? "{}" : "[]");
            Node element = bind(field.getChildren().get(0), l.getDataVector(), d.getDataVector(), elementPath,
                    provider);
            return new Node(dst, path) {
                @Override
                void copy(int si, int di, int row) {
                    if (l.isNull(si)) {
                        d.setNull(di);
                        return;
                    }
                    int start = l.getElementStartIndex(si);
                    int end = l.getElementEndIndex(si);
                    int at = d.startNewValue(di);
                    for (int j = start; j < end; j++) {
                        element.copy(j, at + j - start, row);
                    }
                    d.endValue(di, end - start);
                }
            };
        }
        throw new DictionaryDecodeException(path, -1, "a dictionary-encoded field inside Arrow type "
                + field.getType() + " cannot be decoded (only inside structs, lists and maps)");
    }

    /** A dictionary-encoded vector: each index replaced by the dictionary value it points at. */
    private static final class IndexNode extends Node {
        private final BaseIntVector indices;
        private final FieldVector indexVector;
        private final FieldVector values;
        private final long size;

        IndexNode(BaseIntVector indices, FieldVector indexVector, FieldVector values, FieldVector dst, String path) {
            super(dst, path);
            this.indices = indices;
            this.indexVector = indexVector;
            this.values = values;
            this.size = values.getValueCount();
        }

        @Override
        void copy(int si, int di, int row) {
            if (indexVector.isNull(si)) {
                dst.setNull(di);
                return;
            }
            long k = indices.getValueAsLong(si);
            if (k < 0 || k >= size) {
                // an unsigned 64-bit index beyond Long.MAX_VALUE reads as negative: outside any dictionary too
                throw new DictionaryDecodeException(path, row, "index " + Long.toUnsignedString(k)
                        + " is outside its dictionary of " + size + " values");
            }
            dst.copyFromSafe((int) k, di, values);
        }
    }

    private static Dictionary dictionary(DictionaryProvider provider, DictionaryEncoding encoding, String path) {
        Dictionary dictionary = provider == null ? null : provider.lookup(encoding.getId());
        if (dictionary == null) {
            throw new DictionaryDecodeException(path, -1, "its dictionary (id " + encoding.getId() + ") is not"
                    + " available; a VectorSchemaRoot does not carry dictionaries, its reader's DictionaryProvider"
                    + " does");
        }
        return dictionary;
    }

    private static boolean containsDictionary(Field f) {
        if (f.getDictionary() != null) {
            return true;
        }
        for (Field child : f.getChildren()) {
            if (containsDictionary(child)) {
                return true;
            }
        }
        return false;
    }

    private static Field decoded(Field f, DictionaryProvider provider, String path) {
        DictionaryEncoding encoding = f.getDictionary();
        if (encoding != null) {
            Field value = dictionary(provider, encoding, path).getVector().getField();
            if (containsDictionary(value)) {
                throw new DictionaryDecodeException(path, -1, "its dictionary's values are dictionary-encoded"
                        + " themselves, which is not supported");
            }
            Map<String, String> metadata = new HashMap<>();
            if (value.getMetadata() != null) {
                metadata.putAll(value.getMetadata());
            }
            if (f.getMetadata() != null) {
                metadata.putAll(f.getMetadata());
            }
            FieldType type = new FieldType(f.isNullable() || value.isNullable(), value.getType(), null,
                    metadata.isEmpty() ? null : metadata);
            return new Field(f.getName(), type, value.getChildren());
        }
        if (!containsDictionary(f)) {
            return f;
        }
        List<Field> children = new ArrayList<>();
        for (Field child : f.getChildren()) {
            children.add(decoded(child, provider, path + (f.getType() instanceof ArrowType.Map ? "{}"
                    : f.getType() instanceof ArrowType.Struct ? "." + child.getName() : "[]")));
        }
        return new Field(f.getName(), f.getFieldType(), children);
    }
}
