/**
 * react-admin's default theme, made usable at phone width (issue 17 point 7): the content column may
 * shrink below its widest table (flex items default to min-width: auto, which pushed the page wider
 * than the screen), and a table scrolls sideways inside its own box instead.
 */
import { defaultTheme, type RaThemeOptions } from 'react-admin';

const scrollsSideways = { overflowX: 'auto', maxWidth: '100%' } as const;

export const theme: RaThemeOptions = {
  ...defaultTheme,
  components: {
    ...defaultTheme.components,
    RaLayout: { styleOverrides: { root: { '& .RaLayout-content': { minWidth: 0 }, '& .RaLayout-contentWithSidebar': { minWidth: 0 } } } },
    RaList: { styleOverrides: { root: { minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': scrollsSideways } } },
    RaDatagrid: { styleOverrides: { root: { '& .RaDatagrid-tableWrapper': scrollsSideways } } },
    MuiTableContainer: { styleOverrides: { root: scrollsSideways } },
  } as RaThemeOptions['components'],
};
