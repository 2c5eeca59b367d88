/* error.h - bcwalk's error convention: negative return codes plus a
 * last-error record holding the message. */
#ifndef BCWALK_ERROR_H
#define BCWALK_ERROR_H

/* Error codes returned by library functions (0 is success).  Only failures
 * a caller can act on get their own code; the message says the rest. */
enum bcw_error_code {
    BCW_OK = 0,
    BCW_ERROR = -1,     /* generic failure, see bcw_error_last() */
    BCW_EINPUT = -2,    /* bad input file or argument: the user's to fix */
    BCW_ENOTFOUND = -3, /* the named unit or function does not exist */
    BCW_ENOMEM = -4     /* an allocation failed or hit its limit */
};

/* The message of the last failure in this thread, or "" if none.  The
 * string is borrowed and valid until the next failing call. */
const char *bcw_error_last(void);

#endif
