# cmake -DIN=FILE -DOUT=FILE -P lower.cmake: a copy of IN one line lower,
# so that every source site in its debug information moves.
file(READ ${IN} text)
file(WRITE ${OUT} "\n${text}")
