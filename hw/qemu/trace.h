#include "trace/trace-hw_openenoc.h"
