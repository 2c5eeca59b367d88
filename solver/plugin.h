/* plugin.h - the analysis as an opt pass: the C side of plugin.cpp. */
#ifndef BCW_PLUGIN_H
#define BCW_PLUGIN_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Analyses and partitions `mod` (left unchanged) and writes the model as
 * `bcwalk analyze
 * --format json` does: to the file named by $BCWALK_MODEL (atomically),
 * or to stdout.  Failures are reported on stderr; returns 0 or -1. */
int bcw__plugin_run(LLVMModuleRef mod);

#ifdef __cplusplus
}
#endif

#endif
