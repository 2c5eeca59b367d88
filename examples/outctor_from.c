/* outctor_from.c - a second translation unit of outctor.c's vector that
 * knows OcVec only by its declaration, as a library's other files know
 * a type its header keeps opaque.  Linked before outctor.c
 * (outctor-linked.bc), its constructor is the first the analysis meets,
 * so the struct's size and fields must come from the other file's debug
 * info. */
typedef struct oc_vec_s OcVec;

enum oc_stat { OC_OK, OC_ERR_ALLOC, OC_ERR_RANGE };

enum oc_stat oc_vec_new(OcVec **out);
enum oc_stat oc_vec_add(OcVec *v, int x);
void oc_vec_destroy(OcVec *v);

/* OC_OK and a new vector holding 0 .. n-1 in *out; OC_ERR_RANGE for a
 * negative n, or OC_ERR_ALLOC. */
enum oc_stat oc_vec_from(int n, OcVec **out)
{
    OcVec *v;
    if (n < 0)
        return OC_ERR_RANGE;
    if (oc_vec_new(&v) != OC_OK)
        return OC_ERR_ALLOC;
    for (int i = 0; i < n; i++) {
        if (oc_vec_add(v, i) != OC_OK) {
            oc_vec_destroy(v);
            return OC_ERR_ALLOC;
        }
    }
    *out = v;
    return OC_OK;
}
