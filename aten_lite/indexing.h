/* aten_lite/indexing.h - t[key] and t[key] = v: the plan of a key (torch's indexing rules) and its execution. */
#ifndef ATEN_LITE_INDEXING_H
#define ATEN_LITE_INDEXING_H

#include <stdbool.h>
#include <stdint.h>

#include "c10_lite/tensor_impl.h"

/* One item of an indexing key, as the binding parsed it. */
typedef enum mt_index_kind {
    MT_INDEX_INT,      /* select: `index` */
    MT_INDEX_SLICE,    /* start:stop:step, already clamped to the dim (step > 0) */
    MT_INDEX_NONE,     /* a new size-1 dim */
    MT_INDEX_ELLIPSIS, /* the dims no other item names */
    MT_INDEX_BOOL,     /* True / False: a new dim of size 1 / 0 */
    MT_INDEX_TENSOR,   /* an index tensor (integer) or a mask (bool, uint8) */
} mt_index_kind;

typedef struct mt_index_item {
    mt_index_kind kind;
    int64_t index;              /* INT */
    int64_t start, stop, step;  /* SLICE, in Python's slice convention (may need clamping) */
    bool value;                 /* BOOL */
    const mt_tensor *tensor;    /* TENSOR: borrowed; the caller keeps it alive */
} mt_index_item;

/* Note [Indexing plans]
 * A key is applied in two steps, as in torch.  First the basic items (ints,
 * slices, None, ..., True/False) are applied to the tensor as views, in
 * order; 0-d integer tensors count as ints.  What is left are the index
 * tensors, each bound to one dim of that view (a k-dim mask becomes the k
 * coordinate tensors of its non-zero elements, bound to k consecutive dims;
 * True/False becomes an index [0] / [] into its new unit dim).  The plan
 * holds that view and those (dim, index) pairs; getting and putting then
 * follow NumPy's placement rule: the broadcast index dims replace the indexed
 * dims in place when those were adjacent, and go first otherwise.  Putting
 * requires a value tensor of the indexed tensor's dtype (torch's index_put_
 * rule), except when the key indexes with one mask and the value has one
 * element (torch fills the masked elements then, converting the value). */
typedef struct mt_index_plan {
    mt_tensor *view;                /* owned: the tensor with the basic items applied */
    int nadv;                       /* index tensors */
    int64_t dims[MT_MAX_DIMS];      /* the dim of `view` each indexes, increasing */
    mt_tensor *index[MT_MAX_DIMS];  /* owned: integer index tensors */
    bool one_mask;                  /* the index tensors are one mask's coordinates */
} mt_index_plan;

/* Builds the plan of items[0..n) on self.  0, or a negative MT_E* code with
 * the message set (IndexError-type messages as torch) and nothing held. */
int mt_index_plan_make(const mt_tensor *self, int n, const mt_index_item *items, mt_index_plan *plan);
void mt_index_plan_release(mt_index_plan *plan);
/* self[key]: the view itself when the key has no index tensor, else a new
 * contiguous tensor.  Caller owns. */
mt_tensor *mt_index_plan_get(const mt_index_plan *plan);
/* self[key] = values: values broadcast as torch's setitem does (leading size-1
 * dims dropped, then expanded to the indexed shape), converted to self's
 * dtype.  Nothing is written on error. */
int mt_index_plan_put(const mt_index_plan *plan, const mt_tensor *values);
/* The values of a put into a tensor on device d (new reference, or NULL): values itself, or a
 * copy on d of a 0-d cpu tensor (a scalar value, as torch allows on any device). */
mt_tensor *mt_index_put_values_on(const mt_tensor *values, mt_device d);

#endif /* ATEN_LITE_INDEXING_H */
