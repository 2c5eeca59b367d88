/* nounit.c - plain functions and a struct without a constructor: the
 * analyzer must say there is no unit and what it saw. */
struct point {
    int x, y;
};

int point_sum(const struct point *p)
{
    return p->x + p->y;
}

int add(int a, int b)
{
    return a + b;
}
