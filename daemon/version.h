/*
 * version.h: hpod's version, the one place it is written (the Makefile's
 * `make dist` reads it from here too).
 */
#ifndef HPOD_VERSION_H
#define HPOD_VERSION_H

#define HPOD_VERSION	"0.1.0"

#endif
