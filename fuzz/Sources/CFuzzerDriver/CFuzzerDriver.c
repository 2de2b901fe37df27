// Only the header matters: SwiftPM wants a C target to have a source file.
#include "CFuzzerDriver.h"
