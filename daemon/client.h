/*
 * client.h: one request/reply exchange with hpod over its control socket
 * (JSON lines, see hpod(8)).
 */
#ifndef HPOD_CLIENT_H
#define HPOD_CLIENT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * Send req (borrowed) and wait for the reply (the caller frees it with
 * cJSON_Delete).  Return 0, or -1 with err ("cannot reach hpod at ...").
 */
int	 client_request(const char *socket, const cJSON *req, cJSON **reply,
	    char *err, size_t errlen);

#endif
