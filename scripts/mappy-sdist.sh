# scripts/mappy-sdist.sh — sourced by the recorders of minimap2's own results
# (record-splice-golden.sh, record-dp-golden.sh, record-sdust-golden.sh): fetches a mappy
# sdist from PyPI, which carries minimap2's C sources, into $CACHE/dl once, and checks it
# against its pinned sha256. The caller defines CACHE, PYTHON, note and die, and may set
# MAPPY_VER (2.24, the default, or 2.31) before sourcing. Sets MAPPY_VER, MAPPY_SHA256 and
# TARBALL. A tarball already at $CACHE/dl (e.g. copied from elsewhere) is used when its
# sha256 is the pinned one.
MAPPY_VER=${MAPPY_VER:-2.24}
case $MAPPY_VER in
2.24) MAPPY_SHA256=35a2fb73ef14173283d5abb31e7a318429e0330c3be95851df38dd83d4ff9af9 ;;
2.31) MAPPY_SHA256=152a358c11cba1f992968e2611f1e0a1f4a87aaaa3602d93e4f59d7c1db8f3b2 ;;
*) die "no pinned mappy sdist for MAPPY_VER=$MAPPY_VER (2.24 or 2.31)" ;;
esac
TARBALL=$CACHE/dl/mappy-$MAPPY_VER.tar.gz
fetch_mappy_sdist() {
	local dl=$CACHE/dl
	if [[ ! -f $TARBALL ]]; then
		mkdir -p "$dl"
		note "fetching the mappy $MAPPY_VER sdist (minimap2 $MAPPY_VER sources) from PyPI ..."
		"$PYTHON" -m pip download --disable-pip-version-check --no-deps --no-binary mappy "mappy==$MAPPY_VER" \
			-d "$dl" >"$dl/pip.log" 2>&1 || { tail -n 20 "$dl/pip.log" >&2; die "pip download failed"; }
		[[ -f $TARBALL ]] || die "pip did not leave $TARBALL"
	fi
	echo "$MAPPY_SHA256  $TARBALL" | sha256sum -c --quiet - >/dev/null 2>&1 ||
		die "$TARBALL has an unexpected sha256 (remove it to fetch again)"
}
