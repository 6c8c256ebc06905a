/**
 * The parts of the WordPress editor packages this plugin uses. They are not
 * bundled: esbuild maps each import to its window.wp.* global and the
 * generated editor.asset.php lists them as script dependencies, so the
 * packages themselves are not installed here; these declarations type them.
 */
type WpNode = unknown;
type WpComponent<P = Record<string, unknown>> = (props: P & { children?: WpNode }) => WpNode;

declare namespace JSX {
  type Element = WpNode;
  interface IntrinsicElements {
    [tag: string]: Record<string, unknown>;
  }
}

declare module '@wordpress/element' {
  export function createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): WpNode;
  export const Fragment: WpComponent;
}

declare module '@wordpress/blocks' {
  export function registerBlockType(metadata: Record<string, unknown>, settings: Record<string, unknown>): unknown;
}

declare module '@wordpress/block-editor' {
  export function useBlockProps(props?: Record<string, unknown>): Record<string, unknown>;
  export const InspectorControls: WpComponent;
}

declare module '@wordpress/components' {
  export interface Option {
    value: string;
    label: string;
  }
  export const PanelBody: WpComponent<{ title: string; initialOpen?: boolean }>;
  export const TextControl: WpComponent<{
    label: string;
    value: string;
    onChange: (value: string) => void;
    help?: WpNode;
    placeholder?: string;
    type?: string;
    inputMode?: string;
    className?: string;
    __next40pxDefaultSize?: boolean;
    __nextHasNoMarginBottom?: boolean;
  }>;
  export const SelectControl: WpComponent<{
    label: string;
    value: string;
    options: Option[];
    onChange: (value: string) => void;
    help?: WpNode;
    __next40pxDefaultSize?: boolean;
    __nextHasNoMarginBottom?: boolean;
  }>;
  export const ToggleControl: WpComponent<{ label: string; checked: boolean; onChange: (value: boolean) => void; help?: WpNode; __nextHasNoMarginBottom?: boolean }>;
  export const Notice: WpComponent<{ status: 'warning' | 'error' | 'info' | 'success'; isDismissible?: boolean }>;
  export const ExternalLink: WpComponent<{ href: string }>;
}

declare module '@wordpress/i18n' {
  export function __(text: string, domain?: string): string;
  export function sprintf(format: string, ...args: unknown[]): string;
}
