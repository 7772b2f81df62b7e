#!/bin/sh
# Compiles a native jar's module descriptor into its classes: an empty module named as Netty names its native
# jars (io.github.nettyucx.transport.linux.x86_64, ...aarch_64). The jar holds the JNI library alone, a resource
# under META-INF that the transport's class loader finds in any module; the descriptor makes the jar an explicit
# module, which jlink can link (an automatic one it refuses).
# Usage: module-descriptor.sh JAVAC MODULE_NAME LIBRARY_FILE CLASSES_DIR
set -eu
javac=$1
module=$2
library=$3
classes=$4

src=$(mktemp -d "${TMPDIR:-/tmp}/netty-ucx-module.XXXXXX")
trap 'rm -rf "$src"' EXIT
cat >"$src/module-info.java" <<DESCRIPTOR
/** netty-ucx's JNI library, META-INF/native/$library, for the transport's class loader to load. */
module $module {
}
DESCRIPTOR
mkdir -p "$classes"
# -Xlint:-module: javac advises against a name part ending in digits (x86_64); the name follows Netty's.
"$javac" --release 17 -Xlint:-module -d "$classes" "$src/module-info.java"
