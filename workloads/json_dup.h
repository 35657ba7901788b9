/*
 * json_dup.h: find a key that a JSON object holds twice.  cJSON keeps
 * both members and its lookups find the first, so the other (the one
 * edited last, perhaps) would be ignored without a word; specs and
 * control requests refuse it instead.
 */
#ifndef HPOD_JSON_DUP_H
#define HPOD_JSON_DUP_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * 1 if an object in j, at any depth, holds a key twice, with the key
 * path of its second member in path ("a.b[2].c", len bytes); else 0.
 */
int	 json_dup_find(const cJSON *j, char *path, size_t len);

#endif
