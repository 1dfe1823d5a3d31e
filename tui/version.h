/* version.h — threadlab --version: the version, then the build's features,
 * one "name: value" line each, so that a bug report can quote them. */
#ifndef THREADLAB_VERSION_H
#define THREADLAB_VERSION_H

#include <stdio.h>

void version_print(FILE *f);

#endif
