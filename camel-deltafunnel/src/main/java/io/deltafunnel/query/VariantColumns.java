package io.deltafunnel.query;

import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.delta.VariantStruct;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The per-batch Arrow transform that turns Delta variants into JSON text: every {@link VariantStruct} in a batch (a
 * struct whose first field is {@link VariantStruct#METADATA}), at top level or inside structs, lists and maps, becomes
 * a nullable {@code Utf8} holding the variant's canonical JSON ({@link VariantJson}, {@link ShreddedVariant}); a SQL
 * NULL variant stays NULL, a variant null becomes the text {@code null}.
 *
 * <p><b>Cost when absent.</b> A batch without a variant is returned as is, after one walk over its schema's fields.
 *
 * <p><b>Ownership.</b> {@link #decode} takes ownership of the root it is given: it returns it unchanged, or closes it
 * after moving its columns into a new root allocated from {@code allocator}, which the caller then owns. Columns
 * without a variant are transferred (no copy); columns with one are rebuilt value by value. If decoding fails, both
 * the new root and the given one are closed before the {@link VariantDecodeException} is thrown.
 */
public final class VariantColumns {

    private VariantColumns() {
    }

    /** True when the schema has a variant anywhere, that is when {@link #decode} would change the batch. */
    public static boolean present(Schema schema) {
        for (Field f : schema.getFields()) {
            if (containsVariant(f)) {
                return true;
            }
        }
        return false;
    }

    /** The schema {@link #decode} produces: every variant struct replaced by a nullable {@code Utf8}. */
    public static Schema decodedSchema(Schema schema) {
        if (!present(schema)) {
            return schema;
        }
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.getFields()) {
            fields.add(decoded(f));
        }
        return new Schema(fields, schema.getCustomMetadata());
    }

    /** See the class comment. */
    public static VectorSchemaRoot decode(VectorSchemaRoot root, BufferAllocator allocator) {
        Schema schema = root.getSchema();
        if (!present(schema)) {
            return root;
        }
        VectorSchemaRoot decoded = VectorSchemaRoot.create(decodedSchema(schema), allocator);
        try {
            JsonText json = new JsonText();
            int rows = root.getRowCount();
            for (int c = 0; c < schema.getFields().size(); c++) {
                FieldVector src = root.getVector(c);
                FieldVector dst = decoded.getVector(c);
                Field field = schema.getFields().get(c);
                if (containsVariant(field)) {
                    Node node = bind(field, src, dst, field.getName());
                    for (int r = 0; r < rows; r++) {
                        node.copy(r, r, r, json);
                    }
                } else {
                    src.makeTransferPair(dst).transfer();
                }
            }
            decoded.setRowCount(rows);
        } catch (RuntimeException e) {
            decoded.close();
            root.close();
            throw e;
        }
        root.close();
        return decoded;
    }

    /**
     * One vector of a column holding a variant, bound to its source and target vectors for one batch, so that the
     * per-value work does no schema look-ups: a variant, a struct or list (map) around one, or a subtree without any
     * (copied value by value).
     */
    private abstract static class Node {
        final FieldVector src;
        final FieldVector dst;
        final String path;

        Node(FieldVector src, FieldVector dst, String path) {
            this.src = src;
            this.dst = dst;
            this.path = path;
        }

        /** Copies value {@code si} to position {@code di}; {@code row} is the top-level row, for errors. */
        abstract void copy(int si, int di, int row, JsonText json);
    }

    private static Node bind(Field field, FieldVector src, FieldVector dst, String path) {
        if (isVariant(field)) {
            return new VariantNode((StructVector) src, (VarCharVector) dst, path);
        }
        if (!containsVariant(field)) {
            return new Node(src, dst, path) {
                @Override
                void copy(int si, int di, int row, JsonText json) {
                    dst.copyFromSafe(si, di, src);
                }
            };
        }
        if (src instanceof StructVector s) {
            List<FieldVector> from = s.getChildrenFromFields();
            List<FieldVector> to = ((StructVector) dst).getChildrenFromFields();
            List<Node> children = new ArrayList<>();
            for (int k = 0; k < from.size(); k++) {
                children.add(bind(field.getChildren().get(k), from.get(k), to.get(k), path + "." + from.get(k).getName()));
            }
            return new Node(src, dst, path) {
                @Override
                void copy(int si, int di, int row, JsonText json) {
                    StructVector d = (StructVector) dst;
                    if (s.isNull(si)) {
                        d.setNull(di);
                        return;
                    }
                    d.setIndexDefined(di);
                    for (Node child : children) {
                        child.copy(si, di, row, json);
                    }
                }
            };
        }
        if (src instanceof ListVector l) {
            // also MapVector, a list of key/value structs
            ListVector d = (ListVector) dst;
            String elementPath = path + (field.getType() instanceof ArrowType.Map ? "{}" : "[]");
            Node element = bind(field.getChildren().get(0), l.getDataVector(), d.getDataVector(), elementPath);
            return new Node(src, dst, path) {
                @Override
                void copy(int si, int di, int row, JsonText json) {
                    if (l.isNull(si)) {
                        d.setNull(di);
                        return;
                    }
                    int start = l.getElementStartIndex(si);
                    int end = l.getElementEndIndex(si);
                    int at = d.startNewValue(di);
                    for (int j = start; j < end; j++) {
                        element.copy(j, at + j - start, row, json);
                    }
                    d.endValue(di, end - start);
                }
            };
        }
        throw new VariantDecodeException(path, 0, "a variant inside Arrow type " + field.getType()
                + " cannot be decoded", null);
    }

    /** A variant struct, written as JSON text. */
    private static final class VariantNode extends Node {
        private final StructVector variant;
        private final VarCharVector out;
        private final VarBinaryVector metadata;
        private final FieldVector value;
        private final FieldVector typed;

        VariantNode(StructVector variant, VarCharVector out, String path) {
            super(variant, out, path);
            this.variant = variant;
            this.out = out;
            this.metadata = (VarBinaryVector) variant.getChild(VariantStruct.METADATA);
            this.value = (FieldVector) variant.getChild(VariantStruct.VALUE);
            this.typed = (FieldVector) variant.getChild(VariantStruct.TYPED_VALUE);
        }

        @Override
        void copy(int si, int di, int row, JsonText json) {
            if (variant.isNull(si)) {
                out.setNull(di);
                return;
            }
            json.reset();
            try {
                if (metadata.isNull(si)) {
                    throw new IllegalArgumentException("the variant metadata is NULL");
                }
                if (!ShreddedVariant.append(json, new VariantJson.Metadata(metadata.get(si)), value, typed, si)) {
                    json.appendAscii("null");
                }
            } catch (RuntimeException e) {
                throw new VariantDecodeException(path, row, e.getMessage(), e);
            }
            out.setSafe(di, json.bytes(), 0, json.length());
        }
    }

    static boolean isVariant(Field f) {
        List<Field> children = f.getChildren();
        return f.getType() instanceof ArrowType.Struct && children.size() >= 2
                && children.get(0).getName().equals(VariantStruct.METADATA)
                && children.get(1).getName().equals(VariantStruct.VALUE);
    }

    private static boolean containsVariant(Field f) {
        if (isVariant(f)) {
            return true;
        }
        for (Field child : f.getChildren()) {
            if (containsVariant(child)) {
                return true;
            }
        }
        return false;
    }

    private static Field decoded(Field f) {
        if (isVariant(f)) {
            return new Field(f.getName(), FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
        }
        if (!containsVariant(f)) {
            return f;
        }
        List<Field> children = new ArrayList<>();
        for (Field child : f.getChildren()) {
            children.add(decoded(child));
        }
        return new Field(f.getName(), f.getFieldType(), children);
    }
}
