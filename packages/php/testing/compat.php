<?php
/**
 * What the plugin's PHP needs of the PHP running it, checked without running
 * the plugin (which needs WordPress): every file parses (token_get_all with
 * TOKEN_PARSE is the compiler's own parser), and the built-in functions and
 * classes it names exist in this PHP. The test runs it on the supported
 * range's ends while the plugin's behaviour tests run on the native PHP.
 *
 * Input: /work/compat.json {"root": "/plugin", "skip": ["node_modules", ...],
 * "builtins": {"functions": [...], "classes": [...]}, "polyfills": [...]}, the
 * built-ins of the newest and the native PHP (a name the plugin uses that one
 * of them has built in and this one lacks is a function or class this PHP would
 * not find), and the functions WordPress polyfills.
 * Output: JSON {"files": N, "problems": ["file:line: message", ...]}.
 */

$input    = json_decode( file_get_contents( C2C_TEST_ROOT . '/work/compat.json' ), true );
$root     = C2C_TEST_ROOT . $input['root'];
$have     = array(
	'functions' => array_flip( get_defined_functions()['internal'] ),
	'classes'   => array_flip( array_map( 'strtolower', array_merge( get_declared_classes(), get_declared_interfaces() ) ) ),
);
$newest   = array(
	'functions' => array_flip( $input['builtins']['functions'] ),
	'classes'   => array_flip( array_map( 'strtolower', $input['builtins']['classes'] ) ),
);
$polyfill = array_flip( $input['polyfills'] );
$problems = array();
$count    = 0;

$files = new RecursiveIteratorIterator(
	new RecursiveCallbackFilterIterator(
		new RecursiveDirectoryIterator( $root, FilesystemIterator::SKIP_DOTS ),
		static function ( $file ) use ( $input ) {
			return ! ( $file->isDir() && in_array( $file->getFilename(), $input['skip'], true ) );
		}
	)
);
foreach ( $files as $file ) {
	if ( 'php' !== $file->getExtension() ) {
		continue;
	}
	++$count;
	$name = substr( $file->getPathname(), strlen( $root ) + 1 );
	$code = file_get_contents( $file->getPathname() );
	try {
		$tokens = token_get_all( $code, TOKEN_PARSE );
	} catch ( ParseError $e ) {
		$problems[] = "$name:{$e->getLine()}: does not parse: {$e->getMessage()}";
		continue;
	}
	// Names as code uses them: a call `name(`, `new Name`, `Name::`, `catch ( Name`, `instanceof Name`.
	$significant = array_values(
		array_filter(
			$tokens,
			static function ( $t ) {
				return ! is_array( $t ) || ! in_array( $t[0], array( T_WHITESPACE, T_COMMENT, T_DOC_COMMENT ), true );
			}
		)
	);
	foreach ( $significant as $i => $token ) {
		if ( ! is_array( $token ) ) {
			continue;
		}
		$text = ltrim( $token[1], '\\' );
		// PHP 8 reads `\name` as one token (T_NAME_FULLY_QUALIFIED); PHP 7.4 as T_NS_SEPARATOR + T_STRING.
		$is_name = T_STRING === $token[0] || ( defined( 'T_NAME_FULLY_QUALIFIED' ) && T_NAME_FULLY_QUALIFIED === $token[0] );
		if ( ! $is_name || false !== strpos( $text, '\\' ) ) {
			continue;
		}
		$before = $significant[ $i - 1 ] ?? null;
		$before = is_array( $before ) ? $before[0] : $before;
		if ( T_NS_SEPARATOR === $before ) {
			$before = $significant[ $i - 2 ] ?? null;
			$before = is_array( $before ) ? $before[0] : $before;
		}
		$after = $significant[ $i + 1 ] ?? null;
		$after = is_array( $after ) ? $after[0] : $after;
		$lower = strtolower( $text );
		if ( '(' === $after && ! in_array( $before, array( T_OBJECT_OPERATOR, T_DOUBLE_COLON, T_FUNCTION, T_NEW, T_CONST ), true )
			&& ( ! defined( 'T_NULLSAFE_OBJECT_OPERATOR' ) || T_NULLSAFE_OBJECT_OPERATOR !== $before ) ) {
			if ( isset( $newest['functions'][ $lower ] ) && ! isset( $have['functions'][ $lower ] ) && ! isset( $polyfill[ $lower ] ) ) {
				$problems[] = "$name:{$token[2]}: calls $text(), which PHP " . PHP_VERSION . ' does not have';
			}
		} elseif ( in_array( $before, array( T_NEW, T_INSTANCEOF, T_EXTENDS, T_IMPLEMENTS ), true ) || T_DOUBLE_COLON === $after || ( '(' === ( $significant[ $i - 1 ] ?? null ) && T_CATCH === ( $significant[ $i - 2 ][0] ?? null ) ) ) {
			if ( isset( $newest['classes'][ $lower ] ) && ! isset( $have['classes'][ $lower ] ) ) {
				$problems[] = "$name:{$token[2]}: uses class $text, which PHP " . PHP_VERSION . ' does not have';
			}
		}
	}
}
echo json_encode( array( 'files' => $count, 'problems' => $problems ) );
