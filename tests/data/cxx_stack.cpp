// cxx_stack.cpp - a small C++ class with no extern "C" interface:
// bad_input.py compiles it with and without -g and requires bcwalk to
// say it walks C interfaces.
class Stack {
  public:
    void push(int x)
    {
        if (n < 8)
            v[n++] = x;
    }
    int pop()
    {
        return n > 0 ? v[--n] : -1;
    }
    int size() const
    {
        return n;
    }

  private:
    int v[8] = {};
    int n = 0;
};

Stack *make_stack()
{
    return new Stack();
}

void stack_push(Stack *s, int x)
{
    s->push(x);
}

int stack_size(const Stack *s)
{
    return s->size();
}

void drop_stack(Stack *s)
{
    delete s;
}
