/* version.h - which bcwalk this is. */
#ifndef BCWALK_VERSION_H
#define BCWALK_VERSION_H

/* bcwalk's version, "major.minor.patch": the one version of the build
 * (CMake's project version), which the command, the opt plugin and the
 * caches of worker builds all use.  A static string. */
const char *bcw_version(void);

#endif
