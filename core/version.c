/* version.c - bcwalk's version, from the build's one version source. */
#include "bcwalk/version.h"

const char *bcw_version(void)
{
    return BCW_VERSION;
}
