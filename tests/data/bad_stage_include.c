/* bad_stage_include.c - an engine file reaching into a later stage, the
 * report: the build must refuse it (ctest test_layering_build_stage). */
#include "engine.h"
#include "report.h"
