/**
 * react-admin's default theme, made usable at phone width (issue 17 point 7): the content column may
 * shrink below its widest table (flex items default to min-width: auto, which pushed the page wider
 * than the screen), and a table scrolls sideways inside its own box instead.
 */
import type { Theme } from '@mui/material';
import { defaultTheme, type RaThemeOptions } from 'react-admin';

const scrollsSideways = { overflowX: 'auto', maxWidth: '100%' } as const;

export const theme: RaThemeOptions = {
  ...defaultTheme,
  components: {
    ...defaultTheme.components,
    // react-admin's layout is min-width: fit-content: the widest table made the whole page wider.
    // On a narrow screen the page's content scrolls sideways in its own box (a wide table or form row
    // of any page); on a wide one it does not become a scroll container (sticky table headers stay).
    RaLayout: {
      styleOverrides: {
        root: ({ theme: t }: { theme: Theme }) => ({
          minWidth: 0,
          '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar': { minWidth: 0 },
          '& .RaLayout-content': { minWidth: 0, [t.breakpoints.down('md')]: { overflowX: 'auto' } },
        }),
      },
    },
    RaList: { styleOverrides: { root: { minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': scrollsSideways } } },
    RaDatagrid: { styleOverrides: { root: { '& .RaDatagrid-tableWrapper': scrollsSideways } } },
    MuiTableContainer: { styleOverrides: { root: scrollsSideways } },
  } as RaThemeOptions['components'],
};
