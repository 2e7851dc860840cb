<?php
/**
 * php/wordpress/tests/form.php FORM_ID [--click=ID] [NAME=VALUE...] < PAGE.html - what a browser submits
 * when a person fills in the form of id FORM_ID on the page and clicks the submit button of id ID: the
 * form's successful controls, in document order, as an application/x-www-form-urlencoded body on stdout.
 * Each NAME=VALUE replaces what the page has for NAME (its first occurrence; later ones are dropped), or
 * is added when the page has none: that is the person's typing. Exit status 1 when there is no such form.
 *
 * Successful controls, as HTML has them: named inputs, textareas and selects that are not disabled;
 * checkboxes and radio buttons only when checked (a checkbox without a value sends "on"); of the submit
 * buttons only the one clicked; no file inputs, reset or plain buttons. A select sends its selected options,
 * or its first one when none is selected and it is not multiple. The parsing is by regular expression,
 * enough for WordPress's own admin markup; it is not an HTML parser (a `>` inside an attribute value, or a
 * `</form>` inside a script template of the form, would mislead it).
 */
$form_id = $argv[1] ?? '';
$click   = null;
$set     = array();
foreach ( array_slice( $argv, 2 ) as $arg ) {
	if ( 0 === strncmp( $arg, '--click=', 8 ) ) {
		$click = substr( $arg, 8 );
	} elseif ( false !== ( $eq = strpos( $arg, '=' ) ) ) {
		$set[ substr( $arg, 0, $eq ) ] = substr( $arg, $eq + 1 );
	}
}
$html = stream_get_contents( STDIN );

function attrs( string $s ): array {
	preg_match_all( '/([^\s=\/"\']+)(?:\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^\s"\'>]+)))?/', $s, $m, PREG_SET_ORDER );
	$a = array();
	foreach ( $m as $x ) {
		$v = $x[2] ?? '';
		if ( '' === $v && isset( $x[3] ) && '' !== $x[3] ) {
			$v = $x[3];
		} elseif ( '' === $v && isset( $x[4] ) ) {
			$v = $x[4];
		}
		$a[ strtolower( $x[1] ) ] = html_entity_decode( $v, ENT_QUOTES | ENT_HTML5, 'UTF-8' );
	}
	return $a;
}

if ( ! preg_match( '/<form\b[^>]*\bid\s*=\s*["\']' . preg_quote( $form_id, '/' ) . '["\'][^>]*>(.*?)<\/form>/is', $html, $f ) ) {
	fwrite( STDERR, "form.php: no form with id '$form_id'\n" );
	exit( 1 );
}
$pairs = array();
preg_match_all( '/<input\b([^>]*)>|<textarea\b([^>]*)>(.*?)<\/textarea>|<select\b([^>]*)>(.*?)<\/select>/is', $f[1], $controls, PREG_SET_ORDER );
foreach ( $controls as $c ) {
	// trailing groups that did not take part are left out: 2 entries for an input, 4 a textarea, 6 a select
	if ( 2 === count( $c ) ) {
		$a    = attrs( $c[1] );
		$type = strtolower( $a['type'] ?? 'text' );
		if ( ! isset( $a['name'] ) || '' === $a['name'] || isset( $a['disabled'] ) || in_array( $type, array( 'file', 'reset', 'button' ), true ) ) {
			continue;
		}
		if ( in_array( $type, array( 'submit', 'image' ), true ) && ( null === $click || ( $a['id'] ?? null ) !== $click ) ) {
			continue;
		}
		if ( in_array( $type, array( 'checkbox', 'radio' ), true ) && ! isset( $a['checked'] ) ) {
			continue;
		}
		$pairs[] = array( $a['name'], $a['value'] ?? ( 'checkbox' === $type || 'radio' === $type ? 'on' : '' ) );
	} elseif ( 4 === count( $c ) ) {
		$a = attrs( $c[2] );
		if ( isset( $a['name'] ) && '' !== $a['name'] && ! isset( $a['disabled'] ) ) {
			// HTML drops one newline right after <textarea>
			$pairs[] = array( $a['name'], html_entity_decode( preg_replace( '/^\r?\n/', '', $c[3] ), ENT_QUOTES | ENT_HTML5, 'UTF-8' ) );
		}
	} else {
		$a = attrs( $c[4] );
		if ( ! isset( $a['name'] ) || '' === $a['name'] || isset( $a['disabled'] ) ) {
			continue;
		}
		preg_match_all( '/<option\b([^>]*)>([^<]*)/i', $c[5], $opts, PREG_SET_ORDER );
		$first = null;
		$any   = false;
		foreach ( $opts as $o ) {
			$oa    = attrs( $o[1] );
			$value = $oa['value'] ?? trim( html_entity_decode( $o[2], ENT_QUOTES | ENT_HTML5, 'UTF-8' ) );
			$first = $first ?? $value;
			if ( isset( $oa['selected'] ) ) {
				$pairs[] = array( $a['name'], $value );
				$any     = true;
			}
		}
		if ( ! $any && null !== $first && ! isset( $a['multiple'] ) ) {
			$pairs[] = array( $a['name'], $first );
		}
	}
}

$out = array();
foreach ( $pairs as list( $name, $value ) ) {
	if ( array_key_exists( $name, $set ) ) {
		if ( null === $set[ $name ] ) {
			continue;   // already sent
		}
		$value         = $set[ $name ];
		$set[ $name ] = null;
	}
	$out[] = rawurlencode( $name ) . '=' . rawurlencode( $value );
}
foreach ( $set as $name => $value ) {
	if ( null !== $value ) {
		$out[] = rawurlencode( $name ) . '=' . rawurlencode( $value );
	}
}
echo implode( '&', $out );
